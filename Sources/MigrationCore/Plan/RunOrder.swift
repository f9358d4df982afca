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
            if let keyed = packed(onTrack, of: migrations) {
                appendSorted(keyed, into: &slots)
            } else {
                appendSorted(onTrack.map { (key: migrations[$0].version!, position: $0) }, into: &slots)
            }
        }
        return slots
    }

    /// Sorts `keyed` by key, then position (so equal keys keep declaration order), and
    /// appends each with the first position of its run of equal keys. The keys sit beside
    /// their positions, so the sort reads memory in order rather than at random.
    private static func appendSorted<Key: Comparable>(_ keyed: [(key: Key, position: Int)], into slots: inout [Slot]) {
        var keyed = keyed
        keyed.sort { $0.key < $1.key || ($0.key == $1.key && $0.position < $1.position) }
        var runStart = 0
        for index in keyed.indices {
            if keyed[runStart].key != keyed[index].key { runStart = index }
            slots.append(Slot(position: keyed[index].position, firstOfVersion: keyed[runStart].position))
        }
    }

    /// Each position with its version as one number ordered like the version, or `nil` if one
    /// does not fit.
    private static func packed(_ positions: [Int], of migrations: [RegisteredMigration]) -> [(key: UInt64, position: Int)]? {
        var keyed: [(key: UInt64, position: Int)] = []
        keyed.reserveCapacity(positions.count)
        for position in positions {
            guard let version = migrations[position].version, version.tail.isEmpty else { return nil }
            let (a, b, c, d) = version.head
            guard a | b | c | d <= 0xFFFF else { return nil }
            keyed.append((a << 48 | b << 32 | c << 16 | d, position))
        }
        return keyed
    }
}
