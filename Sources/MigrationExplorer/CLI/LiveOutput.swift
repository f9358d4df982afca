import Foundation
import MigrationCore

/// Writes a run's output as it comes, each line prefixed with its migration:
///
/// ```
/// 0.9 │ added 12 GUIDs
/// build 118 │ indexing 40%
/// 2.1 │ 50%
/// ```
///
/// Commands' lines arrive from a background thread while they run; a Swift body's log is
/// written when it finishes, and its progress as it reports it, one line each tenth at most.
final class LiveOutput: @unchecked Sendable {
    private let style: ConsoleStyle
    /// The live status line the lines are written above, if there is one.
    private let progress: RunProgress?
    // Safe: `running`, `prefix`, `streamed` and `tenths` are only touched while `lock` is
    // held, which a line's write holds too, so lines never interleave.
    private let lock = RecursiveLock()
    /// The running step's label; progress reported for any other is not shown.
    private var running = ""
    private var prefix = ""
    private var streamed = false
    /// The running step's progress, in whole tenths, as last written.
    private var tenths = 0

    init(style: ConsoleStyle, progress: RunProgress? = nil) {
        self.style = style
        self.progress = progress
    }

    func show(_ event: RunEvent) {
        switch event {
        case .started(let subject):
            lock.withLock {
                running = subject.label
                prefix = style.paint(Self.name(subject), .dim) + " " + style.paint(style.glyphs.unicode ? "│" : "|", .dim) + " "
                streamed = false
                tenths = 0
            }
        case .progress(let subject, let fraction):
            let reached = Int(fraction * 10)
            let shows: Bool = lock.withLock {
                guard subject.label == running, reached > tenths else { return false }
                tenths = reached
                return true
            }
            guard shows else { return }
            write(line: "\(Int((fraction * 100).rounded()))%", streamed: false)
        case .finished(let step):
            if !lock.withLock({ streamed }) { step.log.forEach { write(line: $0) } }
        }
    }

    /// Writes a line of the running step's output; `streamed`: it is part of its log, which
    /// then is not written again when the step finishes.
    func write(line: String, streamed: Bool = true) {
        lock.withLock {
            if streamed { self.streamed = true }
            let text = prefix + line.drawable + "\n"
            fflush(nil)  // what a body printed through the C library comes first, as it happened
            guard let progress else { return StandardStreams.write(text) }
            progress.above(output: line) { StandardStreams.write(text) }
        }
    }

    /// `0.9`, `build 118`, `onUpdate`: short, since it starts every line.
    static func name(_ subject: RunStep.Subject) -> String {
        switch subject {
        case .migration(let migration): migration.track == .version ? migration.declared : "build \(migration.declared)"
        case .hook(let hook): hook.kind
        }
    }
}
