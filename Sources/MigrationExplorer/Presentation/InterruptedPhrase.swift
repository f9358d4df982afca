import Foundation
import MigrationCore

/// How interrupted attempts (see `MigrationAttempt`) and the migrations they hold back are
/// said, in the same words by the plan, the run, the terminal UI's details and JSON.
enum InterruptedPhrase {
    /// What a person does to run a held-back migration now: the command line's option, or the
    /// terminal UI's.
    static let retryHint = "run --retry-interrupted to try again"

    /// `version 1.0 "Import the archive": interrupted 3 times at build 120, held back; run --retry-interrupted to try again`.
    static func heldBack(_ label: String, _ held: InterruptedHoldBack) -> String {
        "\(label): \(held); \(retryHint)"
    }

    /// One attempt: `2026-11-28 09:00:01 UTC, build 120`.
    static func attempt(_ attempt: MigrationAttempt) -> String {
        [timestamp(attempt.date), attempt.appName].compactMap { $0 }.joined(separator: ", ")
    }

    /// A start as the history says it, in UTC, to the second.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(dateSeparator: .dash, dateTimeSeparator: .space, timeZone: .gmt)
            .year().month().day().time(includingFractionalSeconds: false)) + " UTC"
    }

    /// A start as JSON gives it: ISO 8601, to the millisecond.
    static func jsonDate(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// An attempt in JSON: `{"appBuild": "120", "appVersion": "1.0", "date": "2026-11-28T09:00:01.250Z"}`.
    struct Attempt: Encodable {
        let appBuild, appVersion: Nullable<String>
        let date: String

        init(_ attempt: MigrationAttempt) {
            appBuild = Nullable(attempt.appBuild)
            appVersion = Nullable(attempt.appVersion)
            date = InterruptedPhrase.jsonDate(attempt.date)
        }
    }

    /// ``Attempt`` through the plan's writer.
    static func write(_ attempt: MigrationAttempt, to writer: inout JSONWriter) {
        writer.object { fields in
            fields.field("appBuild") { $0.string(attempt.appBuild) }
            fields.field("appVersion") { $0.string(attempt.appVersion) }
            fields.field("date") { $0.string(jsonDate(attempt.date)) }
        }
    }
}

extension MigrationPlan {
    /// The plan's "Interrupted" section: each migration that has interrupted attempts, what
    /// that means for the next run, and each attempt with its date and app build.
    var interruptedLines: [String] {
        entries.flatMap { entry -> [String] in
            let attempts = interruptedAttempts(of: entry.migration)
            guard !attempts.isEmpty else { return [] }
            let label = entry.migration.label.drawable
            let head = interruptionHoldBack(of: entry.migration).map { InterruptedPhrase.heldBack(label, $0) }
                ?? "\(label): \(attempts.count.counting("interrupted attempt"))"
            return [head] + attempts.map { "    interrupted \(InterruptedPhrase.attempt($0).drawable)" }
        }
    }
}

extension RunReport {
    /// What a run held back for its interruptions, and what waits behind each.
    var interruptedLines: [String] {
        steps.compactMap { step -> String? in
            guard case .heldBack(let held) = step.outcome else { return nil }
            let waiting = heldBack.filter { $0.track == held.track }.map(\.trackAndVersion)
            let behind = waiting.isEmpty ? "" : " (\(waiting.joined(separator: ", ")) \(waiting.count.agreeing("waits", "wait")) behind it)"
            return InterruptedPhrase.heldBack(step.subject.label.drawable, held) + behind
        }
    }
}
