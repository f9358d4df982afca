import Foundation

/// SIGINT, SIGTERM and SIGHUP during `run`. Before the first step starts nothing has run,
/// and the process exits at once with 128 + the signal; once a step has started, the run is
/// cancelled (see ``RunCancellation``) and ends on its own, recorded. A second signal while
/// the running step has not stopped yet (a body that ignores cancellation, a command that
/// ignores SIGTERM) gives up waiting: the process exits at once, that step unrecorded.
///
/// ```swift
/// let signals = SignalCancellation(settings.cancellation, json: nil)
/// let report = try explorer.run { _ in signals.runStarted() }
/// if let signal = signals.received { exit(128 + signal) }
/// ```
final class SignalCancellation: @unchecked Sendable {
    private let cancellation: RunCancellation
    /// Where the JSON document of an early exit goes: the real standard output, with `--json`.
    private let json: FileHandle?
    // Safe: `started` and `signal` are only touched while `lock` is held.
    private let lock = NSLock()
    private var started = false
    private var signal: Int32?
    private var sources: [DispatchSourceSignal] = []
    private static let handled = [SIGINT, SIGTERM, SIGHUP]

    init(_ cancellation: RunCancellation, json: FileHandle?) {
        self.cancellation = cancellation
        self.json = json
        for number in Self.handled {
            Foundation.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in receive(number) }
            source.resume()
            sources.append(source)
        }
    }

    /// The run is over: the signals act as usual again (and nothing writes to the standard
    /// output this was given, which may be closed now).
    func stop() {
        sources.forEach { $0.cancel() }
        for number in Self.handled { Foundation.signal(number, SIG_DFL) }
    }

    /// The first signal received, if any.
    var received: Int32? { lock.withLock { signal } }

    /// A step has started: from now on a signal cancels rather than exits.
    func runStarted() {
        lock.withLock { started = true }
    }

    private func receive(_ number: Int32) {
        let (exitNow, second): (Bool, Bool) = lock.withLock {
            defer { if signal == nil { signal = number } }
            return (!started, signal != nil)
        }
        if !exitNow && !second { return cancellation.cancel() }
        if second { cancellation.abandon() }
        let failure = CommandFailure(.cancelled, second
            ? "stopped by a second signal \(number) before the running step stopped: it is not recorded and runs again next time"
            : "stopped by signal \(number) before anything ran", status: 128 + number)
        Program.report(failure.message)
        if let json { json.write(Data((JSONReports.encode(CommandFailure.Alone(error: .init(failure))) + "\n").utf8)) }
        exit(failure.status)
    }
}
