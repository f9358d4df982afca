import Foundation
import MigrationCore

/// SIGINT, SIGTERM and SIGHUP during `run`. Before the first step starts nothing has run,
/// and the process exits at once with 128 + the signal; once a step has started, the run is
/// cancelled (see ``RunCancellation``) and ends on its own, recorded. A second signal while
/// the running step has not stopped yet (a body that ignores cancellation, a command that
/// ignores SIGTERM) gives up waiting: the process exits at once, that step unrecorded; with
/// `--json`, its document lists the steps that finished until then.
///
/// ```swift
/// let signals = SignalCancellation(cancellation, json: nil)
/// let report = try explorer.run { event in signals.observe(event) }
/// if let signal = signals.received { exit(128 + signal) }
/// ```
final class SignalCancellation: @unchecked Sendable {
    private let cancellation: RunCancellation
    /// Where the JSON document of an early exit goes: the real standard output, with `--json`.
    private let json: FileHandle?
    // Safe: everything below is only touched while `lock` is held. An early exit keeps it
    // held until the process is gone, so the run's own report never follows its document.
    private let lock = RecursiveLock()
    private var started = false
    private var stopped = false
    /// The steps that finished, for the document of a second signal.
    private var finished: [RunStep] = []
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

    /// The run is over: the signals act as usual again, and nothing more is written to the
    /// standard output this was given (the run writes its own report now). Waits for an early
    /// exit already under way, which then ends the process.
    func stop() {
        lock.withLock { stopped = true }
        sources.forEach { $0.cancel() }
        for number in Self.handled { Foundation.signal(number, SIG_DFL) }
    }

    /// The first signal received, if any.
    var received: Int32? { lock.withLock { signal } }

    /// Follows the run: once a step has started, a signal cancels rather than exits.
    func observe(_ event: RunEvent) {
        lock.withLock {
            started = true
            if json != nil, case .finished(let step) = event { finished.append(step) }
        }
    }

    private func receive(_ number: Int32) {
        let cancels: Bool = lock.withLock {
            let second = signal != nil
            if signal == nil { signal = number }
            guard !stopped, !started || second else { return !stopped }
            exitEarly(number, second: second)
        }
        if cancels { cancellation.cancel() }
    }

    /// Exits at once, holding `lock`: a second signal gives up on the running step (its
    /// command's group is killed, it is not recorded); a first one before any step started
    /// finds nothing to wait for.
    private func exitEarly(_ number: Int32, second: Bool) -> Never {
        let failure = CommandFailure(.cancelled, second
            ? "stopped by a second signal \(number) before the running step stopped: it is not recorded and runs again next time"
            : "stopped by signal \(number) before anything ran", status: ExitStatus.stopped(bySignal: number))
        Program.report(failure.message)
        if let json {
            let document = second
                ? JSONReports.encode(JSONReports.Interrupted(finished: finished, error: failure))
                : JSONReports.encode(CommandFailure.Alone(error: .init(failure)))
            StandardStreams.write(document + "\n", to: json)
        }
        if second { cancellation.abandon() }
        Program.exit(failure.status)
    }
}
