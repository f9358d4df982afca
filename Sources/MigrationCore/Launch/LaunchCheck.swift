/// The launch fast path: the first `migrateToVersion` of a launch (cold) and every later one
/// with nothing to do (warm) decide here, from the store's parsed marks, whether a block may
/// be due. A block it finds may be due goes the full way, ``ExactlyOnce``, which decides
/// again under the block's lock; everything else in the package is plain code.
///
/// Why it looks as it does, said once. A launch is judged against MTMigration, which reads
/// one `UserDefaults` key and compares two strings. What costs most in a fresh process is not
/// the work but the Swift runtime's first use of a type: instantiating a generic type's
/// metadata from its mangled name (10,000–30,000 instructions for the first of a kind), and
/// above all a cast or a `Hashable`/`Equatable` requirement that the process has not checked
/// yet, which searches every protocol conformance it has loaded (about 220,000 instructions
/// and 20 page faults the first time, more than the rest of a file store's launch). Everything
/// outside this folder uses the plain types a reader expects; what a launch must not pay for
/// is here:
/// - the store's marks reader is chosen by comparing the store's exact type before any cast
///   (``marksReader(of:)``): a failed cast to a protocol is a conformance search;
/// - ``KeyedList``, not a `Dictionary` keyed by `String`, holds the store resources of a
///   process and the mark caches of a resource, its first entry on its own;
/// - a launch read names where a mark was read only when the mark is not a strict version
///   (``MigrationState/nameSourcesOfLooseMarks(_:)``), so a launch fills no
///   ``MigrationState/markSources`` dictionary;
/// - the loose marks already reported are kept in a set made when the first one is: a
///   `Set<String>` made at every launch would check that `String` is `Hashable`;
/// - a file store takes its path without `URL.path` (`URL.filePath`), and finds its marks
///   line from the end of the file and reads it without a JSON decoder (``PlainMarksObject``);
/// - a `UserDefaults` store's launch read leaves `historyIsComplete` unread: the first boolean
///   read through `UserDefaults` bridges a number, which costs more than every mark together;
/// - the re-entrant lock every resource makes is a `pthread_mutex_t` (``RecursiveLock``), not
///   an `NSRecursiveLock`, whose first use costs a launch its Foundation class.
/// `migration-bench`'s `warm` and `cold` sections measure this path against MTMigration;
/// a change to any type it touches is measured there.
final class LaunchCheck: Sendable {
    /// The store's current marks, parsed; cached by this package's stores.
    private let readMarks: @Sendable () throws -> MarksCache.Entry
    /// The store's cache, when every change to its records reaches it (see ``surelySkips(_:on:app:policy:)``).
    private let cache: MarksCache?
    /// Loose readings of recorded marks already reported, so each is reported once.
    private let reportedNotes = Locked<ReportedNotes?>(nil)

    /// The set of ``reportedNotes``, in an object of its own, made at the first note.
    private final class ReportedNotes {
        var texts: Set<String> = []
    }

    /// Generic, so that a store given as `any MigrationStore` is opened here, and the checks
    /// below compare its own type, not the existential's (whose metadata a launch would build).
    init<Store: MigrationStore>(store: Store) {
        readMarks = Self.marksReader(of: store)
        cache = Self.launchCache(of: store)
    }

    /// The warm check: whether the migration at `version` on `track` surely does not run with
    /// the app at `app` under `policy`, judged by ``MigrationRule`` on the marks cached by a
    /// store that every change reaches, under the cache's lock. `false` sends the call the
    /// full way (nothing cached, a mark read loosely, or a baseline that may be due).
    @inline(__always)
    func surelySkips(_ version: Version, on track: MigrationTrack, app: Version, policy: FreshInstallPolicy) -> Bool {
        cache?.withCachedEntry { $0.surelySkips(version, on: track, app: app, policy: policy) } ?? false
    }

    /// The cold check, on the store's current marks (cached while nothing changed them):
    /// whether `step` may be due with the app at `app` under `policy`. A loose reading of a
    /// mark is passed to `note` once per process.
    /// - Throws: when the store cannot be read or a mark is unusable.
    func mayBeDue(_ step: BlockStep, app: Version?, policy: FreshInstallPolicy, note: (String) -> Void) throws -> Bool {
        let current = try readMarks()
        if !current.marks.looseMarks.isEmpty { reportOnce(current.marks.looseMarks, to: note) }
        return try current.mayBeDue(step, app: app, policy: policy)
    }

    private func reportOnce(_ marks: [LooseMark], to note: (String) -> Void) {
        for text in marks.map(\.description) where reportedNotes.withLock({ reported in
            let notes = reported ?? ReportedNotes()
            reported = notes
            return notes.texts.insert(text).inserted
        }) {
            note(text)
        }
    }

    /// A reader of the current marks, parsed: the store's cache for this package's stores,
    /// otherwise ``MigrationStore/loadMarks()`` parsed on each call.
    private static func marksReader<Store: MigrationStore>(of store: Store) -> @Sendable () throws -> MarksCache.Entry {
        if let store = exactly(UserDefaultsMigrationStore.self, store) { return { store.cachedMarks() } }
        if let store = exactly(FileMigrationStore.self, store) { return { try store.cachedMarks() } }
        if let store = exactly(InMemoryMigrationStore.self, store) { return { store.cachedMarks() } }
        if let store = exactly(PropertyListMigrationStore.self, store) { return { try store.cachedMarks() } }
        return {
            let state = try store.loadMarks()
            return MarksCache.Entry(state: state, marks: RecordedMarks(state), stamp: nil)
        }
    }

    /// The cache every change to the store's records in this process reaches, so that the
    /// warm check may read it without asking the store: `UserDefaults` and memory, not files
    /// (another process may change them).
    private static func launchCache<Store: MigrationStore>(of store: Store) -> MarksCache? {
        if let store = exactly(UserDefaultsMigrationStore.self, store) { return store.cache }
        if let store = exactly(InMemoryMigrationStore.self, store) { return store.cache }
        return nil
    }

    /// `store` as `Store` when it is of exactly that (final) class, compared before any cast.
    private static func exactly<Exact: MigrationStore, Store: MigrationStore>(_ type: Exact.Type, _ store: Store) -> Exact? {
        Store.self == type ? store as? Exact : nil
    }
}
