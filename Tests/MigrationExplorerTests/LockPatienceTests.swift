import Foundation
import MigrationCore
import MigrationExplorer
import MigrationTestSupport
import Testing
#if SQLite
import MigrationSQLite
#endif
#if PostgreSQL
import MigrationPostgres
import ThrowawayPostgresServer
#endif

/// One lock patience, one behaviour, whatever the store: while a run in another process is
/// inside a step (its block), a store given no patience gives up at once with its busy error,
/// one given 0.2 s gives up after about that, and one that waits as long as it takes goes on
/// once the holder lets go; for a block of its own run and for a reset alike.
/// Serialized: each case starts a holder process and times the wait for it.
@Suite(.serialized) struct LockPatienceTests {
    /// A store kind, its explorer option and how a store of it is opened with a patience.
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case jsonFile, plist, sqlite, postgres

        var testDescription: String { rawValue }

        /// The kinds this build has.
        static var built: [Kind] {
            var kinds: [Kind] = [.jsonFile, .plist]
            #if SQLite
            kinds.append(.sqlite)
            #endif
            #if PostgreSQL
            kinds.append(.postgres)
            #endif
            return kinds
        }
    }

    /// What the waiting store does while the holder is inside its step.
    enum Action: String, CaseIterable, CustomTestStringConvertible {
        /// A run of the same registry, whose first step the holder is inside.
        case run
        /// A reset, which waits for the holder's run to end.
        case reset

        var testDescription: String { rawValue }
    }

    /// A folder with a manifest whose step 0.1 says it started and then waits for a `go` file,
    /// the store of one kind, and a run of the built binary that holds it inside that step.
    final class Holder {
        let kind: Kind
        let folder: URL
        let option: String
        let location: String
        let running: Executable.Running
        var pid: Int32 { running.pid }

        init(_ kind: Kind) async throws {
            self.kind = kind
            folder = try makeTemporaryFolder()
            // It ends when the folder goes too: a holder never outlives its test.
            let step = "touch \(folder.path)/started; while [ ! -e \(folder.path)/go ] && [ -d \(folder.path) ]; do sleep 0.05; done"
            try folder.appendingPathComponent("manifest.json").write("""
                { "appVersion": "1.0", "migrations": [ { "version": "0.1", "title": "Hold the store", "run": "\(step)" } ] }
                """)
            switch kind {
            case .jsonFile: (option, location) = ("--store", folder.appendingPathComponent("state.json").path)
            case .plist: (option, location) = ("--defaults-plist", folder.appendingPathComponent("com.example.notes.plist").path)
            case .sqlite: (option, location) = ("--sqlite", folder.appendingPathComponent("notes.sqlite").path)
            case .postgres:
                #if PostgreSQL
                let url = try ThrowawayPostgres.shared().createDatabase()
                (option, location) = ("--postgres", url)
                #else
                throw HolderError.notBuilt(kind)
                #endif
            }
            running = try await Executable.start(["run", "--manifest", folder.appendingPathComponent("manifest.json").path, option, location])
            let started = folder.appendingPathComponent("started").path
            guard await waitUntil({ FileManager.default.fileExists(atPath: started) }) else {
                let result = await release()
                throw HolderError.neverStarted(result.stderr)
            }
        }

        /// Lets the step end and waits for the holder's run to finish (killing it after 30 s);
        /// again, the same result.
        @discardableResult
        func release() async -> Executable.Result {
            if let finished { return finished }
            try? folder.appendingPathComponent("go").write("")
            guard let result = await running.finish(within: 30) else { return Executable.Result(status: -1, stdout: "", stderr: "the holder did not end within 30 s") }
            finished = result
            return result
        }
        private var finished: Executable.Result?

        deinit {
            if running.isRunning { kill(running.pid, SIGKILL) }
            try? FileManager.default.removeItem(at: folder)
        }

        enum HolderError: Error {
            case neverStarted(String)
            case notBuilt(Kind)
        }
    }

    /// Runs `body` while a holder of `kind` is inside its step, then lets it go and waits for
    /// its run to end, whether `body` threw or not: no holder outlives its test.
    static func withHolder(_ kind: Kind, _ body: (Holder) async throws -> Void) async throws {
        let holder = try await Holder(kind)
        do { try await body(holder) } catch {
            await holder.release()
            throw error
        }
        await holder.release()
    }

    /// The store `holder` holds, opened again in this process with `patience`.
    static func store(_ holder: Holder, patience: LockPatience) throws -> any MigrationStore {
        switch holder.kind {
        case .jsonFile: return FileMigrationStore(url: URL(fileURLWithPath: holder.location), lockPatience: patience)
        case .plist: return PropertyListMigrationStore(url: URL(fileURLWithPath: holder.location), lockPatience: patience)
        case .sqlite:
            #if SQLite
            return SQLiteMigrationStore(path: holder.location, lockPatience: patience)
            #else
            throw Holder.HolderError.notBuilt(holder.kind)
            #endif
        case .postgres:
            #if PostgreSQL
            return try PostgresMigrationStore(url: holder.location, lockPatience: patience)
            #else
            throw Holder.HolderError.notBuilt(holder.kind)
            #endif
        }
    }

    /// How the waiting store's action ended: its error, if any, how long it took, and whether
    /// its own body of 0.1 ran.
    struct Outcome: Sendable {
        let error: MigrationStoreError?
        let seconds: Double
        let ranTheHeldStep: Bool
    }

    /// `action` on a store, started on a task of its own and timed.
    final class Waiter: Sendable {
        private let ended = Locked<Outcome?>(nil)

        /// `onEnd`: called once the action has ended, after its outcome is kept.
        init(_ action: Action, on store: any MigrationStore, onEnd: @escaping @Sendable () -> Void = {}) throws {
            let ran = Locked(false)
            var registry = MigrationRegistry(appName: "Notes")
            registry.migrate(toVersion: "0.1", title: "Hold the store") { _ in ran.withLock { $0 = true } }
            let runner = MigrationRunner(registry: registry, target: try AppTarget(version: "1.0"))
            let (box, ended) = (StoreBox(store: store), ended)
            Task {
                let start = ContinuousClock.now
                var error: MigrationStoreError?
                do {
                    switch action {
                    case .run: error = try await runner.run(store: box.store).saveError
                    case .reset: _ = try await onThreadOfItsOwn { try box.store.withoutRuns { try box.store.update { $0 = MigrationRule.reset($0) } } }
                    }
                } catch let storeError as MigrationStoreError {
                    error = storeError
                } catch {
                    Issue.record("\(action) failed with \(error)")
                }
                let elapsed = ContinuousClock.now - start
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                ended.withLock { $0 = Outcome(error: error, seconds: seconds, ranTheHeldStep: ran.value) }
                onEnd()
            }
        }

        /// How it ended; `nil` when it has not within `seconds`.
        func outcome(within seconds: Double) async -> Outcome? {
            guard await waitUntil(timeout: seconds, { ended.value != nil }) else { return nil }
            return ended.value
        }
    }

    /// A store handed to another task; stores are used from any thread.
    struct StoreBox: @unchecked Sendable {
        let store: any MigrationStore
    }

    @Test(arguments: Kind.built, Action.allCases)
    func withNoPatienceAStoreGivesUpAtOnceWithItsBusyErrorNamingTheHolder(kind: Kind, action: Action) async throws {
        try await Self.withHolder(kind) { holder in
            let store = try Self.store(holder, patience: .noWait)
            // The holder never lets go: a store that waited would not end within the minute; its
            // error says it did not wait (how fast a loaded machine gets there is not a test's to time).
            let outcome = try #require(await Waiter(action, on: store).outcome(within: 60), "\(kind) \(action) waited for the holder")
            try expectBusy(outcome, kind: kind, action: action, holder: holder, gaveUp: "did not wait")
        }
    }

    @Test(arguments: Kind.built, Action.allCases)
    func withAFifthOfASecondAStoreGivesUpAfterAboutThatWithItsBusyError(kind: Kind, action: Action) async throws {
        try await Self.withHolder(kind) { holder in
            let store = try Self.store(holder, patience: .upTo(.milliseconds(200)))
            let outcome = try #require(await Waiter(action, on: store).outcome(within: 60), "\(kind) \(action) waited for the holder")
            try expectBusy(outcome, kind: kind, action: action, holder: holder, gaveUp: "gave up waiting after 0.2 s")
            #expect(outcome.seconds >= 0.2, "\(kind) \(action) gave up after \(outcome.seconds) s")
        }
    }

    @Test(arguments: Kind.built, Action.allCases)
    func withNoLimitAStoreWaitsForTheHolderAndGoesOnOnceItLetsGo(kind: Kind, action: Action) async throws {
        try await Self.withHolder(kind) { holder in
            // The store tells the wait it was opened with that it waits, and for whom: a positive
            // signal that it waits for the holder, not a pause that shows nothing happened.
            let log = WaitLog()
            let waiter = try Waiter(action, on: Self.location(holder).open(waiting: log.waiting), onEnd: log.end)
            guard let told = await log.firstChange(within: .seconds(60)) else {
                let outcome = await waiter.outcome(within: 0)
                Issue.record("\(kind) \(action) ended without telling a wait: \(outcome.map { "\($0)" } ?? "")")
                return
            }
            let holderNamed: String? = if case .waiting(let who) = told { who } else { nil }
            #expect(holderNamed?.contains("pid \(holder.pid)") == true, "\(kind) \(action): told \(told) first")
            let released = await holder.release()
            #expect(released.status == 0, "\(released.stderr)")
            let outcome = try #require(await waiter.outcome(within: 20), "\(kind) \(action) still waits after the holder let go")
            #expect(outcome.error == nil, "\(kind) \(action): \(outcome.error.map(String.init(describing:)) ?? "")")
            #expect(!outcome.ranTheHeldStep, "\(kind) \(action) ran the step the holder had run")
        }
    }

    /// What a store opened with ``waiting`` was told, as it was told.
    final class WaitLog: Sendable {
        private let (changes, tell) = AsyncStream.makeStream(of: StoreWaitChange.self)

        var waiting: StoreWaiting {
            let tell = tell
            return StoreWaiting { change in tell.yield(change) }
        }

        /// No more changes: the action ended.
        func end() { tell.finish() }

        /// The first change told, once told; `nil` when the action ended first, or nothing was
        /// told within `limit` (a store that waits without a word fails, never hangs, the test).
        func firstChange(within limit: Duration) async -> StoreWaitChange? {
            let changes = changes
            return await withTaskGroup(of: StoreWaitChange?.self) { group in
                group.addTask {
                    var told = changes.makeAsyncIterator()
                    return await told.next()
                }
                group.addTask {
                    try? await Task.sleep(for: limit)
                    return nil
                }
                defer { group.cancelAll() }
                return await group.next() ?? nil
            }
        }
    }

    /// Where `holder`'s store is, as the explorer names it.
    static func location(_ holder: Holder) throws -> StoreLocation {
        switch holder.kind {
        case .jsonFile: return .jsonFile(holder.location)
        case .plist: return .defaultsPlist(holder.location)
        case .sqlite:
            #if SQLite
            return .sqlite(holder.location)
            #else
            throw Holder.HolderError.notBuilt(holder.kind)
            #endif
        case .postgres:
            #if PostgreSQL
            return .postgres(try PostgresServer(url: holder.location))
            #else
            throw Holder.HolderError.notBuilt(holder.kind)
            #endif
        }
    }

    /// The command line's `--no-wait` and `--wait SECONDS` give every kind the same patience.
    @Test(arguments: Kind.built)
    func aRunWithNoWaitOrWaitSecondsGivesUpOnAHeldStoreAsEveryKindDoes(kind: Kind) async throws {
        try await Self.withHolder(kind) { holder in
            for (options, gaveUp) in [(["--no-wait"], "did not wait"), (["--wait", "0.2"], "gave up waiting after 0.2 s")] {
                let arguments = ["run", "--manifest", holder.folder.appendingPathComponent("manifest.json").path, holder.option, holder.location]
                let refused = try #require(try await Executable.run(arguments + options, endingWithin: 20), "\(kind) \(options) waited for the holder")
                #expect(refused.status == 75, "\(kind) \(options): \(refused.stderr)")
                #expect(refused.stderr.contains(gaveUp), "\(kind) \(options): \(refused.stderr)")
            }
        }
    }

    private func expectBusy(_ outcome: Outcome, kind: Kind, action: Action, holder: Holder, gaveUp: String) throws {
        let error = try #require(outcome.error, "\(kind) \(action) did not give up")
        guard case .busy(let reason) = error.problem else {
            Issue.record("\(kind) \(action): not the busy error: \(error)")
            return
        }
        #expect(reason.hasPrefix("held by ") && reason.hasSuffix(gaveUp), "\(kind) \(action): \(reason)")
        // Every kind names it: a SQLite block's own lock too, through the process that holds it.
        #expect(reason.contains("pid \(holder.pid)"), "\(kind) \(action): \(reason)")
        #expect(!outcome.ranTheHeldStep, "\(kind) \(action) ran the held step")
    }
}
