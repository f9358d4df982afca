import Foundation
import MigrationCore

/// How a status, a step result or a hook shows: glyph (UTF-8 or ASCII), words and role. The
/// terminal UI and the command line both use it, so they always agree.
struct Glyphs: Sendable {
    let unicode: Bool

    func status(_ status: MigrationStatus) -> String {
        switch status {
        case .applied: unicode ? "✓" : "+"
        case .pending: unicode ? "●" : "*"
        case .failed: unicode ? "✗" : "x"
        case .skipped: unicode ? "○" : "-"
        }
    }

    func outcome(_ outcome: RunStep.Outcome) -> String {
        switch outcome {
        case .succeeded: unicode ? "✓" : "+"
        case .failed: unicode ? "✗" : "x"
        case .wouldRun: unicode ? "▸" : ">"
        case .baselined: unicode ? "≡" : "="
        case .cancelled: unicode ? "⊘" : "/"
        case .heldBack: unicode ? "‖" : "#"
        }
    }

    func hook(fires: Bool) -> String {
        fires ? (unicode ? "↻" : "~") : (unicode ? "·" : ".")
    }

    var arrow: String { unicode ? "→" : "->" }
    var ellipsis: String { unicode ? "…" : "..." }
    var bullet: String { unicode ? "•" : "*" }
    var separator: String { unicode ? "·" : "|" }
    var warning: String { unicode ? "⚠" : "!" }
    var unknown: String { "?" }
}

extension MigrationStatus {
    /// "applied", "pending", "failed" or "skipped: above app version".
    var phrase: String {
        if case .skipped(let reason) = self { return "skipped: \(reason.phrase)" }
        return word
    }

    var role: StyleRole {
        switch self {
        case .applied: .applied
        case .pending: .pending
        case .failed: .failed
        case .skipped: .skipped
        }
    }
}

extension RunStep.Outcome {
    /// "succeeded", "failed", "would-run", "baselined", "cancelled" or "held-back", as reports
    /// and JSON name it.
    var word: String {
        switch self {
        case .succeeded: "succeeded"
        case .failed: "failed"
        case .wouldRun: "would-run"
        case .baselined: "baselined"
        case .cancelled: "cancelled"
        case .heldBack: "held-back"
        }
    }

    var role: StyleRole {
        switch self {
        case .succeeded, .baselined: .applied
        case .failed, .heldBack: .failed
        case .wouldRun, .cancelled: .pending
        }
    }

    /// Whether the migration was held back by its interruptions.
    var isHeldBack: Bool {
        if case .heldBack = self { return true }
        return false
    }

    /// What went wrong: a failure's message, or why a migration was held back.
    var errorMessage: String? {
        if case .failed(let message) = self { return message }
        if case .heldBack(let held) = self { return held.description }
        return nil
    }
}

extension RegisteredMigration {
    /// "version 0.9" or "build 118".
    var trackAndVersion: String { "\(track) \(declared)" }
}

/// Formats seconds for people: "12.3 ms", "1.20 s".
func formatDuration(_ seconds: Double) -> String {
    seconds < 1 ? String(format: "%.1f ms", seconds * 1000) : String(format: "%.2f s", seconds)
}
