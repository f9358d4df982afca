import Foundation
import MigrationCore

/// Writes a run's output as it comes, each line prefixed with its migration:
///
/// ```
/// 0.9 │ added 12 GUIDs
/// build 118 │ indexing 40%
/// ```
///
/// Commands' lines arrive from a background thread while they run; a Swift body's log is
/// written when it finishes.
final class LiveOutput: @unchecked Sendable {
    private let style: ConsoleStyle
    // Safe: `prefix` and `streamed` are only touched while `lock` is held.
    private let lock = NSLock()
    private var prefix = ""
    private var streamed = false

    init(style: ConsoleStyle) { self.style = style }

    func show(_ event: RunEvent) {
        switch event {
        case .started(let subject):
            lock.withLock {
                prefix = style.paint(Self.name(subject), .dim) + " " + style.paint(style.glyphs.unicode ? "│" : "|", .dim) + " "
                streamed = false
            }
        case .progress:
            break
        case .finished(let step):
            if !lock.withLock({ streamed }) { step.log.forEach(write(line:)) }
        }
    }

    func write(line: String) {
        lock.withLock {
            streamed = true
            FileHandle.standardOutput.write(Data((prefix + line + "\n").utf8))
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
