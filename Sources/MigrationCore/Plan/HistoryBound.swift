extension MigrationRule {
    /// The most records a store keeps of one domain's history when it compacts it.
    public static let historyLimit = 10_000

    /// What a store keeps of `history` when it compacts it, so that the history stays bounded
    /// however many runs, failures and resets a device goes through: the latest record of each
    /// outcome of each migration (track and identifier) and of each hook for each app version
    /// (track, identifier and title), and the latest reset; of those, the newest `limit`, in
    /// their order, and every hook record since the latest reset beyond them.
    ///
    /// Nothing that decides anything is dropped: a migration's status reads its latest record
    /// after the latest reset, and a hook's "already ran for this update" reads the records of
    /// its track after the latest reset. Only when the limit drops records is the history no
    /// longer complete (a migration without a record then counts as applied, not out of order).
    ///
    /// ```swift
    /// let (kept, complete) = MigrationRule.boundedHistory(state.history)
    /// ```
    public static func boundedHistory(
        _ history: [MigrationRecord], limit: Int = historyLimit
    ) -> (kept: [MigrationRecord], complete: Bool) {
        var seen = Set<HistoryKey>()
        var newestFirst: [MigrationRecord] = []
        newestFirst.reserveCapacity(min(history.count, limit))
        for record in history.reversed() where seen.insert(HistoryKey(record)).inserted {
            newestFirst.append(record)
        }
        guard newestFirst.count > limit else { return (newestFirst.reversed(), true) }
        var kept = Array(newestFirst.prefix(limit))
        var sinceReset = !kept.contains { $0.subject == .reset }
        for record in newestFirst.dropFirst(limit) where sinceReset {
            if record.subject == .reset {
                sinceReset = false
            } else if record.subject == .updateHook || record.subject == .buildUpdateHook {
                kept.append(record)
            }
        }
        return (kept.reversed(), false)
    }
}

/// What one history record says: a later record with the same key replaces an earlier one.
private struct HistoryKey: Hashable {
    let subject: MigrationRecord.Subject
    let identifier: String?
    /// A hook's title; `nil` for migrations (whose titles may change between releases) and resets.
    let title: String?
    let outcome: MigrationRecord.Outcome?

    init(_ record: MigrationRecord) {
        subject = record.subject
        outcome = record.subject == .reset ? nil : record.outcome
        switch record.subject {
        case .versionMigration, .buildMigration:
            identifier = record.identifier
            title = nil
        case .updateHook, .buildUpdateHook:
            identifier = record.identifier
            title = record.title
        case .reset:
            identifier = nil
            title = nil
        }
    }
}
