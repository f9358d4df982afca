import Foundation
import MigrationCore

/// What a run on the command line is doing now, as its live line shows it: a pure value, drawn
/// by ``line(now:width:glyphs:)``.
///
/// ```swift
/// let status = RunStatus(activity: .running(step: 2, of: 5, name: "0.9", title: "Index notes", lastLine: "40%"), since: start)
/// status.line(now: start + 12, width: 80, glyphs: Glyphs(unicode: true))
/// // "⠙ [2/5] 12s 0.9 Index notes │ 40%"
/// ```
struct RunStatus: Equatable {
    enum Activity: Equatable {
        /// No step has started yet: the store is being read.
        case starting
        /// Another process holds `store`'s lock; `holder`, when the system names it.
        case waiting(store: String, holder: String?)
        /// Step `step` of `of` runs: `name` is its version (`0.9`, `build 118`) or hook kind;
        /// `lastLine`, the last line its command printed.
        case running(step: Int, of: Int, name: String, title: String, lastLine: String?)
    }

    var activity: Activity
    /// When the activity began.
    var since: Date

    /// The live line at `now`, at most `width - 1` terminal cells (the last column would
    /// wrap on some terminals): a spinner, what goes on, the time it has taken, and the last
    /// line of output, which is cut first.
    func line(now: Date, width: Int, glyphs: Glyphs) -> String {
        let seconds = max(0, now.timeIntervalSince(since))
        let spinner = Self.spinner(glyphs)
        let frame = spinner[Int(seconds * 10) % spinner.count]
        let elapsed = Self.elapsed(seconds)
        let text = switch activity {
        case .starting:
            "\(frame) \(elapsed) starting"
        case .waiting(let store, let holder):
            "\(frame) \(elapsed) waiting for \(store), held by \(holder ?? "another process")"
        case .running(let step, let count, let name, let title, let lastLine):
            "\(frame) [\(step)/\(count)] \(elapsed) \(name) \(title)" + (lastLine.map { " \(glyphs.unicode ? "│" : "|") \($0)" } ?? "")
        }
        return Self.fit(text.drawable, width: width - 1, glyphs: glyphs)
    }

    /// "7s", "2m05s", "1h02m": whole seconds, short enough to tick in place.
    static func elapsed(_ seconds: Double) -> String {
        let whole = Int(seconds)
        if whole < 60 { return "\(whole)s" }
        if whole < 3600 { return String(format: "%dm%02ds", whole / 60, whole % 60) }
        return String(format: "%dh%02dm", whole / 3600, whole / 60 % 60)
    }

    private static func spinner(_ glyphs: Glyphs) -> [String] {
        glyphs.unicode ? ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"] : ["|", "/", "-", "\\"]
    }

    /// `text` cut to `width` cells, ending with an ellipsis when cut.
    static func fit(_ text: String, width: Int, glyphs: Glyphs) -> String {
        guard text.displayWidth > width else { return text }
        let ellipsis = glyphs.ellipsis
        var kept = ""
        var used = 0
        for character in text {
            let cells = character.displayWidth
            if used + cells > width - ellipsis.displayWidth { break }
            kept.append(character)
            used += cells
        }
        while kept.last == " " { kept.removeLast() }
        return width >= ellipsis.displayWidth ? kept + ellipsis : ""
    }
}

extension RunStatus {
    /// The plain line a finished step leaves: `✓ [1/3] 0.9 Import notes: succeeded in 1.20 s`;
    /// one held back says why: `‖ [1/3] 0.9 Import notes: interrupted 3 times at build 120, held back`.
    static func finished(_ step: RunStep, number: Int, of count: Int, glyphs: Glyphs) -> String {
        let name = LiveOutput.name(step.subject)
        let how = if case .heldBack(let held) = step.outcome { held.description } else { "\(step.outcome.word) in \(formatDuration(step.duration))" }
        return "\(glyphs.outcome(step.outcome)) [\(number)/\(count)] \(name) \(step.subject.title): \(how)".drawable
    }
}
