import Foundation

/// One line of a ``MigrationState``'s history: a migration or hook that ran (or was baselined).
public struct MigrationRecord: Sendable, Equatable {
    /// What the record is about.
    public enum Subject: String, Sendable, Codable {
        case versionMigration, buildMigration, updateHook, buildUpdateHook
        /// ``Migrator/reset()`` forgot the marks: records before it no longer count.
        case reset
    }

    /// How it ended.
    public enum Outcome: String, Sendable, Codable {
        /// The body ran and returned.
        case succeeded
        /// The body threw; ``MigrationRecord/error`` says what.
        case failed
        /// Recorded as applied without running, by the baseline fresh-install policy.
        case baselined
    }

    public var subject: Subject
    /// The migration's version or build as declared; for hooks, the app version (or build)
    /// they ran for; for the `reset` record of a `set`, the app version the device last ran.
    public var identifier: String?
    public var title: String
    public var date: Date
    /// Wall-clock seconds the body took.
    public var duration: Double
    public var outcome: Outcome
    public var error: String?

    public init(
        subject: Subject, identifier: String?, title: String, date: Date,
        duration: Double, outcome: Outcome, error: String? = nil
    ) {
        self.subject = subject
        self.identifier = identifier
        self.title = title
        self.date = date
        self.duration = duration
        self.outcome = outcome
        self.error = error
    }
}

extension MigrationTrack {
    var recordSubject: MigrationRecord.Subject {
        switch self {
        case .version: .versionMigration
        case .build: .buildMigration
        }
    }

    var hookSubject: MigrationRecord.Subject {
        switch self {
        case .version: .updateHook
        case .build: .buildUpdateHook
        }
    }
}
