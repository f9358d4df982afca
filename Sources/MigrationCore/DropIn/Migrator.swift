import Foundation

/// MTMigration's API on any store: blocks that run once when the app is upgraded.
///
/// A version block runs when `last < version ≤ app`, then `last` becomes its version; with
/// nothing recorded, every block up to the app version runs; `1.10` comes after `1.9`; a block
/// called after a higher one already ran, or above the app version, does not run. Blocks run
/// on the caller's thread and may throw: a block that throws is not recorded and runs again
/// next time, and until it has succeeded no higher block of its track runs (see
/// ``MigrationRule/isHeldBack(_:byFailureOf:)``).
///
/// Every call decides on the store's current records, so a reset made anywhere (another
/// store object, a leftover `[MTMigration reset]`, another process) is seen at once. Two
/// migrators on one store, any number of threads, and with a ``FileMigrationStore`` any
/// number of processes never run the same block twice; a block may call the migrator for
/// another block, on its own thread or another one (see <doc:StoresAndGuarantees>).
///
/// ```swift
/// let migrator = Migrator(appVersion: "1.0", appBuild: "100", store: InMemoryMigrationStore())
/// migrator.migrateToVersion("0.9") { /* runs once */ }
/// migrator.migrateToBuild("98") { }
/// migrator.applicationUpdateBlock { }      // the app version changed (also on first launch)
/// migrator.buildNumberUpdateBlock { }      // the build changed
/// migrator.reset()
/// ```
///
/// The block parameters use typed throws, Swift's successor to `rethrows`: a block that
/// cannot throw needs no `try`, and a block that throws `E` makes the call throw `E`.
public final class Migrator: Sendable {
    /// Where the records are kept.
    public let store: any MigrationStore
    /// The app version and build, as given.
    public let appVersions: AppVersions
    /// What happens on a fresh install: run everything (MTMigration) or record a baseline.
    public let policy: FreshInstallPolicy
    private let appVersion: Result<Version, VersionError>
    private let appBuild: Result<Version?, VersionError>
    /// The app version and build, where usable.
    private let targets: (version: Version?, build: Version?)
    private let onDiagnostic: (@Sendable (MigrationDiagnostic) -> Void)?
    /// How many interrupted attempts at one app build hold a block back (see
    /// ``InterruptedHoldBack``; its diagnostic says so); 0: never.
    public let interruptionLimit: Int
    /// Whether a block held back by its interruptions runs all the same (a debug menu's "try again").
    public let retriesInterrupted: Bool
    /// The launch fast path, on this migrator's store.
    private let launchCheck: LaunchCheck
    /// This migrator's own record of failures, for a store without a shared resource (see ``failures``).
    private let ownFailures = Locked<FailedBlocks?>(nil)

    /// A migrator for an app at `appVersion` (and `appBuild`).
    ///
    /// A version that cannot be parsed does not stop the app: the calls on its track do not
    /// run, and a ``MigrationDiagnostic`` says why.
    ///
    /// ```swift
    /// let migrator = Migrator(appVersion: "2.1", appBuild: "312", store: UserDefaultsMigrationStore(suiteName: "group.notes"))
    /// ```
    /// - Parameters:
    ///   - appVersion: the app's marketing version (`CFBundleShortVersionString`), as `"2.1"`.
    ///   - appBuild: the app's build (`CFBundleVersion`); `nil`: the app has no build number,
    ///     and build blocks do not run.
    ///   - store: where the four marks and the history are kept (by default the standard
    ///     `UserDefaults`, under MTMigration's keys).
    ///   - policy: ``FreshInstallPolicy/runAll`` (MTMigration's behaviour) or
    ///     ``FreshInstallPolicy/baseline``.
    ///   - onDiagnostic: called for every block that could not run or be recorded (held back
    ///     by its interruptions included). They are also written to the unified log on Apple
    ///     platforms, and elsewhere to standard error when no hook is given (see ``MigrationDiagnostic``).
    ///   - interruptionLimit: how many interrupted attempts at one build hold a block back.
    ///   - retriesInterrupted: run a block held back by its interruptions all the same.
    public convenience init(
        appVersion: String, appBuild: String? = nil, store: any MigrationStore = UserDefaultsMigrationStore(),
        policy: FreshInstallPolicy = .runAll,
        onDiagnostic: (@Sendable (MigrationDiagnostic) -> Void)? = nil,
        interruptionLimit: Int = MigrationRule.defaultInterruptionLimit, retriesInterrupted: Bool = false
    ) {
        self.init(versions: AppVersions(version: appVersion, build: appBuild), store: store, policy: policy,
                  onDiagnostic: onDiagnostic, interruptionLimit: interruptionLimit, retriesInterrupted: retriesInterrupted)
    }

    /// A migrator for the versions read from a bundle or `Info.plist`.
    ///
    /// ```swift
    /// let migrator = Migrator(versions: .mainBundle(), store: UserDefaultsMigrationStore())
    /// ```
    /// - Parameters:
    ///   - versions: the app's version and build.
    ///   - store: where the records are kept.
    ///   - policy: what a fresh install does.
    ///   - onDiagnostic: called for every block that could not run or be recorded.
    ///   - interruptionLimit: how many interrupted attempts at one build hold a block back.
    ///   - retriesInterrupted: run a block held back by its interruptions all the same.
    public init(
        versions: AppVersions, store: any MigrationStore = UserDefaultsMigrationStore(),
        policy: FreshInstallPolicy = .runAll,
        onDiagnostic: (@Sendable (MigrationDiagnostic) -> Void)? = nil,
        interruptionLimit: Int = MigrationRule.defaultInterruptionLimit, retriesInterrupted: Bool = false
    ) {
        self.interruptionLimit = interruptionLimit
        self.retriesInterrupted = retriesInterrupted
        self.store = store
        self.launchCheck = LaunchCheck(store: store)
        self.appVersions = versions
        self.policy = policy
        do { appVersion = .success(try Version(versions.version)) } catch { appVersion = .failure(error) }
        do {
            appBuild = .success(try Version.build(versions.build))
        } catch {
            appBuild = .failure(error)
        }
        targets = ((try? appVersion.get()), (try? appBuild.get()) ?? nil)
        self.onDiagnostic = onDiagnostic
    }

    /// Runs `block` once, when the app reaches `version`.
    ///
    /// It runs when the recorded high-water mark is below `version` and `version` is at or
    /// below the app version; then `version` becomes the mark. Blocks run in call order, on the
    /// caller's thread. A block that throws is not recorded, its error reaches the caller, and
    /// no higher version block runs until it has succeeded.
    ///
    /// ```swift
    /// migrator.migrateToVersion("1.1") { normaliseDates() }
    /// try migrator.migrateToVersion("1.2") { try moveNotesToFolders() }
    /// ```
    @inlinable
    public func migrateToVersion<E: Error>(_ version: String, _ block: () throws(E) -> Void) throws(E) {
        if surelySkips(version, on: .version) { return }
        try migrate(version, on: .version, block)
    }

    /// Runs `block` once, when the app reaches build `build`: the same rule as
    /// ``migrateToVersion(_:_:)-5m26x``, on the build track (`CFBundleVersion`).
    ///
    /// ```swift
    /// migrator.migrateToBuild("120") { rebuildSearchIndex() }
    /// ```
    @inlinable
    public func migrateToBuild<E: Error>(_ build: String, _ block: () throws(E) -> Void) throws(E) {
        if surelySkips(build, on: .build) { return }
        try migrate(build, on: .build, block)
    }

    /// The launch-time check with nothing to do (``LaunchCheck/surelySkips(_:on:app:policy:)``):
    /// whether the migration at `text` on `track` surely does not run. `false` sends the call
    /// the full way.
    @usableFromInline
    func surelySkips(_ text: String, on track: MigrationTrack) -> Bool {
        guard let version = try? Version(text) else { return false }
        switch track {
        case .version: return targets.version.map { launchCheck.surelySkips(version, on: track, app: $0, policy: policy) } ?? false
        case .build: return targets.build.map { launchCheck.surelySkips(version, on: track, app: $0, policy: policy) } ?? false
        }
    }

    /// The full way of `migrateToVersion` and `migrateToBuild`: the check on the store's current
    /// marks, then the exactly-once path when it finds the migration may be due.
    @usableFromInline
    func migrate<E: Error>(_ text: String, on track: MigrationTrack, _ block: () throws(E) -> Void) throws(E) {
        guard let step = dueMigration(text, on: track) else { return }
        try runOnce(step, block)
    }

    /// Runs `block` when the app version differs from the one recorded, a first launch
    /// included; then records the current version, so it runs once per version.
    ///
    /// A block that throws records nothing, so it runs again next launch.
    ///
    /// ```swift
    /// migrator.applicationUpdateBlock { showWhatsNew() }
    /// ```
    public func applicationUpdateBlock<E: Error>(_ block: () throws(E) -> Void) throws(E) {
        guard let step = dueUpdate(on: .version) else { return }
        try runOnce(step, block)
    }

    /// Runs `block` when the app build differs from the one recorded, a first launch included;
    /// then records the current build, so it runs once per build.
    ///
    /// ```swift
    /// migrator.buildNumberUpdateBlock { refreshCaches() }
    /// ```
    public func buildNumberUpdateBlock<E: Error>(_ block: () throws(E) -> Void) throws(E) {
        guard let step = dueUpdate(on: .build) else { return }
        try runOnce(step, block)
    }

    /// Forgets all four records: the next calls run every block up to the app version again,
    /// whatever the fresh-install policy. The history is kept, with a `reset` record. A
    /// registry run on the same store (``MigrationRunner``) is waited for, so the reset never
    /// lands between two of its steps (see ``MigrationStore/withoutRuns(onWait:_:)``).
    ///
    /// A reset also lifts the failure rule (see <doc:TheRules>). A store that cannot be
    /// written is reported as a ``MigrationDiagnostic``.
    ///
    /// ```swift
    /// migrator.reset()   // "show the welcome again"
    /// ```
    /// - Warning: it waits for a registry run on the same store to end: do not call it from
    ///   code such a run's body waits for (the main thread while a body runs
    ///   `DispatchQueue.main.sync`, or awaits the main actor).
    public func reset() {
        do {
            try store.withoutRuns { try store.update { $0 = MigrationRule.reset($0) } }
            failures.removeAll()
        } catch {
            report("reset()", "could not reset: \(error)")
        }
    }

    /// The migration at `text` on `track`, when the cheap check finds it may be due.
    func dueMigration(_ text: String, on track: MigrationTrack) -> BlockStep? {
        guard let version = parse(text, track: track) else { return nil }
        let step = BlockStep.migration(track, version)
        return mayBeDue(step) ? step : nil
    }

    /// The update hook on `track`, when the cheap check finds it may be due.
    func dueUpdate(on track: MigrationTrack) -> BlockStep? {
        let step = BlockStep.update(track, hook: nil)
        return mayBeDue(step) ? step : nil
    }

    /// The cheap check (``LaunchCheck/mayBeDue(_:app:policy:note:)``), after the app's own
    /// version or build is found usable. A block it finds due goes through ``runOnce(_:_:)``,
    /// which decides again under its lock.
    func mayBeDue(_ step: BlockStep) -> Bool {
        let app: Version?
        switch step.track {
        case .version:
            switch appVersion {
            case .success(let version): app = version
            case .failure(let error):
                report(step.callName, "did not run: the app version (\(appVersions.versionSource)) is not usable: \(error)")
                return false
            }
        case .build:
            switch appBuild {
            case .success(let build): app = build
            case .failure(let error):
                report(step.callName, "did not run: the app build (\(appVersions.buildSource)) is not usable: \(error)")
                return false
            }
        }
        do {
            return try launchCheck.mayBeDue(step, app: app, policy: policy) { report("recorded marks", $0) }
        } catch {
            report(step.callName, "did not run: \(error)")
            return false
        }
    }

    /// The one exactly-once path shared with registry runs, for a block the cheap check found
    /// may be due.
    private func runOnce<E: Error>(_ step: BlockStep, _ block: () throws(E) -> Void) throws(E) {
        var blockError: E?
        let outcome = exactlyOnce.perform(step, title: step.callName) { _ in
            do throws(E) { try block() } catch {
                blockError = error
                throw error
            }
        }
        try conclude(outcome, of: step, blockError)
    }

    /// What every drop-in call, synchronous or asynchronous, does with the exactly-once
    /// path's outcome: reports what went wrong, then hands the block's own error to the caller.
    func conclude<E: Error>(_ outcome: ExactlyOnce.Outcome, of step: BlockStep, _ blockError: E?) throws(E) {
        report(outcome, of: step)
        if let blockError { throw blockError }
    }

    /// The exactly-once runner for this migrator's store, app and policy.
    var exactlyOnce: ExactlyOnce {
        ExactlyOnce(
            store: store, target: appVersion.map { AppTarget(version: $0, build: targets.build) }, app: targets, policy: policy,
            failures: failures, interruptionLimit: interruptionLimit, retryInterrupted: retriesInterrupted
        )
    }

    /// The failures the failure rule holds later blocks back by: those of the store's resource,
    /// shared by every migrator on the same records (a file's domain) in this process, or this
    /// migrator's own for any other store (a SQLite one included).
    private var failures: FailedBlocks {
        if let backed = store as? any ResourceBacked { return backed.resource.failedBlocks(for: backed.recordsOnResource) }
        return ownFailures.withLock { own in
            if let own { return own }
            let created = FailedBlocks()
            own = created
            return created
        }
    }

    /// Reports what went wrong with a block that was found due.
    func report(_ outcome: ExactlyOnce.Outcome, of step: BlockStep) {
        switch outcome {
        case .notDue, .ran, .threw(_, _, nil), .cancelled:
            break
        case .threw(_, _, let recordError?):
            report(step.callName, "failed, and its failure could not be recorded: \(recordError)")
        case .unrecorded(_, let error):
            report(step.callName, "ran, but could not be recorded: it will run again next launch: \(error)")
        case .refused(let error):
            report(step.callName, "did not run: \(error)")
        }
    }

    private func parse(_ text: String, track: MigrationTrack) -> Version? {
        do { return try Version(text) } catch {
            let call = track == .version ? "migrateToVersion(\"\(text)\")" : "migrateToBuild(\"\(text)\")"
            report(call, "did not run: \(error)")
            return nil
        }
    }

    private func report(_ call: String, _ problem: String) {
        let diagnostic = MigrationDiagnostic(call: call, problem: problem)
        DiagnosticLog.write(diagnostic, hooked: onDiagnostic != nil)
        onDiagnostic?(diagnostic)
    }
}

extension BlockStep {
    /// The drop-in call's name, as it appears in diagnostics and history.
    var callName: String {
        switch self {
        case .migration(.version, let version): "migrateToVersion(\"\(version.text)\")"
        case .migration(.build, let build): "migrateToBuild(\"\(build.text)\")"
        case .update(.version, let hook): hook ?? "applicationUpdateBlock"
        case .update(.build, let hook): hook ?? "buildNumberUpdateBlock"
        }
    }
}
