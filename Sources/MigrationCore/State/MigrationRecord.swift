import Foundation

/// One line of a ``MigrationState``'s history: a migration or hook that ran (or was baselined).
///
/// ```swift
/// for record in try store.load().history where record.outcome == .failed {
///     print(record.date, record.subject, record.identifier ?? "", record.title, record.error ?? "")
/// }
/// ```
public struct MigrationRecord: Sendable, Equatable {
    /// What the record is about.
    public enum Subject: String, Sendable, Codable {
        /// A version migration (`migrateToVersion`).
        case versionMigration
        /// A build migration (`migrateToBuild`).
        case buildMigration
        /// An app version update hook (`applicationUpdateBlock`, `onUpdate`).
        case updateHook
        /// A build update hook (`buildNumberUpdateBlock`, `onBuildUpdate`).
        case buildUpdateHook
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

    /// What ran: a migration, a hook or a reset.
    public var subject: Subject
    /// The migration's version or build as declared; for hooks, the app version (or build)
    /// they ran for; for a reset record, made by `reset()`, how many resets in a row it stands
    /// for when more than one (see ``resetCount``), and made by `set`, the app version the
    /// device last ran.
    public var identifier: String?
    /// The migration's or hook's title; the drop-in call's name for a block
    /// (`migrateToVersion("1.1")`).
    public var title: String
    /// When it ended.
    public var date: Date
    /// Wall-clock seconds the body took.
    public var duration: Double
    /// How it ended.
    public var outcome: Outcome
    /// What the body threw, when it failed.
    public var error: String?

    /// A record, as stores and runs write it.
    ///
    /// ```swift
    /// let record = MigrationRecord(subject: .versionMigration, identifier: "0.9", title: "Add GUIDs",
    ///                              date: Date(), duration: 0.002, outcome: .succeeded)
    /// ```
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

extension MigrationRecord {
    /// For a reset record, how many resets in a row, with nothing run in between, it stands for
    /// (see ``MigrationRule/reset(_:at:)``); 1 for any other record.
    ///
    /// ```swift
    /// state.history.last?.resetCount   // 3: reset on three launches in a row
    /// ```
    public var resetCount: Int {
        guard isPlainReset, let identifier, let count = Int(identifier), count > 1 else { return 1 }
        return count
    }

    /// Whether it is the record of a `reset()` (rather than of a `set`, which also starts the
    /// history afresh but names the device it describes).
    var isPlainReset: Bool { subject == .reset && title == MigrationRule.resetTitle }
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
