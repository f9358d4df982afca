/// Puts valid migrations in run order: the version track before the build track, each in
/// ascending version order, declaration order among equal versions; and finds duplicates,
/// which end up side by side.
///
/// Versions whose components all fit in 16 bits (nearly all real ones) are packed into one
/// 64-bit key and radix sorted, so the time grows linearly: a million migrations sort in a
/// few tens of milliseconds. Any other version makes its track fall back to comparing
/// ``Version`` values.
///
/// ```swift
/// var order = RunOrder()
/// for migration in migrations where migration.version != nil {
///     order.add(migration.version!, on: migration.track, at: migration.id)
/// }
/// for slot in order.slots(of: migrations) { … }   // once: it releases the keys
/// ```
struct RunOrder {
    /// A migration's place in run order.
    struct Slot {
        /// Its index in the registry.
        let position: Int
        /// The index of the first declaration of the same version on the same track: itself
        /// unless it is a duplicate.
        let firstOfVersion: Int
    }

    /// Per track, in ``MigrationTrack/allCases`` order: each valid migration's position with
    /// its packed version, in declaration order. A track's keys mean nothing once one of its
    /// versions does not fit.
    private var keyed: [[(key: UInt64, position: Int)]] = [[], []]
    private var fits = [true, true]

    /// Adds the valid migration at `position`, declared after every one added so far.
    mutating func add(_ version: Version, on track: MigrationTrack, at position: Int) {
        let index = track == .version ? 0 : 1
        let key = Self.packed(version)
        if key == nil { fits[index] = false }
        keyed[index].append((key ?? 0, position))
    }

    /// Every migration added, in run order. The keys are released: call it once.
    mutating func slots(of migrations: [RegisteredMigration]) -> [Slot] {
        var slots: [Slot] = []
        slots.reserveCapacity(keyed[0].count + keyed[1].count)
        for index in keyed.indices {
            if fits[index] {
                Self.radixSort(&keyed[index])
                Self.appendRuns(of: keyed[index], into: &slots)
            } else {
                var byVersion = keyed[index].map { (key: migrations[$0.position].version!, position: $0.position) }
                byVersion.sort { $0.key < $1.key || ($0.key == $1.key && $0.position < $1.position) }
                Self.appendRuns(of: byVersion, into: &slots)
            }
            keyed[index] = []
        }
        return slots
    }

    /// Appends each of `keyed` (sorted by key, then position) with the first position of its
    /// run of equal keys.
    private static func appendRuns<Key: Equatable>(of keyed: [(key: Key, position: Int)], into slots: inout [Slot]) {
        var runStart = 0
        for index in keyed.indices {
            if keyed[runStart].key != keyed[index].key { runStart = index }
            slots.append(Slot(position: keyed[index].position, firstOfVersion: keyed[runStart].position))
        }
    }

    /// The version as one number ordered like versions, or `nil` when it does not fit: more
    /// than four components, or one above 65,535.
    private static func packed(_ version: Version) -> UInt64? {
        guard version.tail.isEmpty else { return nil }
        let (a, b, c, d) = version.head
        guard a | b | c | d <= 0xFFFF else { return nil }
        return a << 48 | b << 32 | c << 16 | d
    }

    /// Sorts `keyed` by key, equal keys in the order given: a least-significant-byte-first
    /// radix sort, one stable counting pass per byte in which the keys differ (three for
    /// versions like `12.34.56`), through one scratch array.
    static func radixSort(_ keyed: inout [(key: UInt64, position: Int)]) {
        guard keyed.count > 1 else { return }
        var counts = [Int](repeating: 0, count: 8 * 256)
        for (key, _) in keyed {
            for byte in 0..<8 { counts[byte << 8 | Int(truncatingIfNeeded: key >> (byte * 8)) & 0xFF] += 1 }
        }
        var scratch = keyed
        for byte in 0..<8 {
            let shift = UInt64(byte * 8)
            // A byte every key shares leaves the order as it is.
            guard !counts[byte << 8 ..< (byte + 1) << 8].contains(keyed.count) else { continue }
            var next = [Int](repeating: 0, count: 256)
            var total = 0
            for digit in 0..<256 {
                next[digit] = total
                total += counts[byte << 8 | digit]
            }
            keyed.withUnsafeBufferPointer { from in
                scratch.withUnsafeMutableBufferPointer { to in
                    for item in from {
                        let digit = Int(truncatingIfNeeded: item.key >> shift) & 0xFF
                        to[next[digit]] = item
                        next[digit] += 1
                    }
                }
            }
            swap(&keyed, &scratch)
        }
    }
}
