import Foundation

/// `UserDefaults` as this package's stores reach it: on Linux and Windows, one call at a time,
/// process-wide.
///
/// Apple documents `UserDefaults` as thread-safe, but swift-corelibs-foundation (Linux,
/// Windows) is not read-your-writes under concurrency: a value set on one thread while another
/// thread reads any key of the same defaults can read back as `nil` on the thread that set it,
/// for a while. A migrator that then decides on that read runs a recorded block again. Taking
/// one lock around each call makes every write visible to every later read (measured: 0 lost
/// reads in 300 rounds of 16 threads, against 8 to 16 rounds in 100 without it). The lock is
/// process-wide because the defaults of one suite are shared by every `UserDefaults` object on
/// it, and re-entrant so that whatever a call reaches on its own thread (an observer of a
/// change notification, which Foundation calls synchronously) may read them again. It covers
/// this package's calls only: an app's own concurrent reads and writes of the same defaults
/// are beyond its reach. Apple's Foundation needs none, so none is taken there.
///
/// ```swift
/// let values = SerializedDefaults(UserDefaults.standard)
/// values.set("1.0", forKey: "MTMigration.lastMigrationVersion")
/// values.string(forKey: "MTMigration.lastMigrationVersion")   // "1.0", on every thread
/// ```
struct SerializedDefaults: PreferenceValues, @unchecked Sendable {
    // Safe: `UserDefaults` is thread-safe on Apple platforms; elsewhere it is only reached
    // while `lock` is held.
    private let defaults: UserDefaults

    init(_ defaults: UserDefaults) { self.defaults = defaults }

    func object(forKey key: String) -> Any? { Self.serialized { defaults.object(forKey: key) } }

    func string(forKey key: String) -> String? { Self.serialized { defaults.string(forKey: key) } }

    func set(_ value: Any?, forKey key: String) { Self.serialized { defaults.set(value, forKey: key) } }

    func removeObject(forKey key: String) { Self.serialized { defaults.removeObject(forKey: key) } }

    #if canImport(Darwin)
    @inline(__always)
    private static func serialized<T>(_ body: () -> T) -> T { body() }
    #else
    private static let lock = RecursiveLock()

    @inline(__always)
    private static func serialized<T>(_ body: () -> T) -> T { lock.withLock(body) }
    #endif
}
