/// Puts valid migrations in run order: the version track before the build track, each in
/// ascending version order, declaration order among equal versions; and finds duplicates,
/// which end up side by side.
///
/// Versions whose components all fit in 16 bits (nearly all real ones) are packed into one
/// 64-bit key, so 100,000 migrations sort in a few milliseconds; any other version makes its
/// track fall back to comparing ``Version`` values.
enum RunOrder {
    /// A migration's place in run order.
    struct Slot {
        /// Its index in the registry.
        let position: Int
        /// The index of the first declaration of the same version on the same track: itself
        /// unless it is a duplicate.
        let firstOfVersion: Int
    }

    /// - Parameter positions: indices of valid migrations, ascending.
    static func slots(_ positions: [Int], of migrations: [RegisteredMigration]) -> [Slot] {
        var slots: [Slot] = []
        slots.reserveCapacity(positions.count)
        for track in MigrationTrack.allCases {
            let onTrack = positions.filter { migrations[$0].track == track }
            let versions = onTrack.map { migrations[$0].version! }
            if let keys = packed(versions) {
                appendSorted(onTrack, keys: keys, into: &slots)
            } else {
                appendSorted(onTrack, keys: versions, into: &slots)
            }
        }
        return slots
    }

    /// Sorts `positions` by `keys` (stable, so equal keys keep declaration order) and appends
    /// them, each with the first position of its run of equal keys.
    private static func appendSorted<Key: Comparable>(_ positions: [Int], keys: [Key], into slots: inout [Slot]) {
        var order = Array(positions.indices)
        order.sort { keys[$0] < keys[$1] }
        var runStart = -1
        for index in order {
            if runStart < 0 || keys[runStart] != keys[index] { runStart = index }
            slots.append(Slot(position: positions[index], firstOfVersion: positions[runStart]))
        }
    }

    /// Each version as one number ordered like the version, or `nil` if one does not fit.
    private static func packed(_ versions: [Version]) -> [UInt64]? {
        var keys: [UInt64] = []
        keys.reserveCapacity(versions.count)
        for version in versions {
            let (a, b, c, d) = version.head
            guard version.tail.isEmpty, a | b | c | d <= 0xFFFF else { return nil }
            keys.append(a << 48 | b << 32 | c << 16 | d)
        }
        return keys
    }
}
