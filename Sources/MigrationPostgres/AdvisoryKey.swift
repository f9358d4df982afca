/// The 64-bit keys of the advisory locks a ``PostgresMigrationStore`` takes: the same on every
/// machine for the same schema, domain and purpose, and far from any other program's keys
/// (FNV-1a over a name that starts with this package's).
struct AdvisoryKey: Sendable, Equatable {
    let value: Int64

    /// The key of `purpose` ("records", "runs", "tables") for `domain` in `schema`.
    init(schema: String, domain: String, purpose: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "migration-explorer\u{0}\(schema)\u{0}\(domain)\u{0}\(purpose)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        value = Int64(bitPattern: hash)
    }

    /// How `pg_locks` shows a 64-bit advisory key: the high half as `classid`, the low as `objid`.
    var classID: Int64 { Int64(UInt64(bitPattern: value) >> 32) }
    var objectID: Int64 { Int64(UInt64(bitPattern: value) & 0xffff_ffff) }
}
