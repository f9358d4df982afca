/// The migrations of one store that failed in this process and have not succeeded since: what
/// the failure rule (``MigrationRule/isHeldBack(_:byFailureOf:)``) holds the drop-in's later
/// blocks back by. Shared by every migrator on the store's resource (see ``StoreResource``),
/// cleared by a reset. Kept in memory rather than read from the history, so that deciding a
/// block costs the same however long the history is; across launches the mark does the rest,
/// since nothing above a failed block was recorded, it runs first again on the next launch.
final class FailedBlocks: Sendable {
    private let failed = Locked<[(track: MigrationTrack, version: Version)]>([])

    /// The lowest failed migration on `track` that holds back `version`, above the mark `lastMigrated`.
    func holdingBack(_ version: Version, on track: MigrationTrack, lastMigrated: Version?) -> Version? {
        let lowest = failed.withLock { failed in
            failed.filter { entry in entry.track == track && lastMigrated.map { entry.version > $0 } ?? true }.map(\.version).min()
        }
        guard let lowest, MigrationRule.isHeldBack(version, byFailureOf: lowest) else { return nil }
        return lowest
    }

    /// Takes in how the migration at `version` on `track` ended.
    func record(_ version: Version, on track: MigrationTrack, failed didFail: Bool) {
        failed.withLock { failed in
            failed.removeAll { $0.track == track && $0.version == version }
            if didFail { failed.append((track, version)) }
        }
    }

    /// Forgets every failure: a reset.
    func removeAll() { failed.withLock { $0.removeAll() } }
}
