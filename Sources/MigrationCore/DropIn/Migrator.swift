import Foundation
import Logging

/// MTMigration's API on any store: blocks that run once when the app is upgraded.
///
/// A version block runs when `last < version ≤ app`, then `last` becomes its version; with
/// nothing recorded, every block up to the app version runs; `1.10` comes after `1.9`; a block
/// called after a higher one already ran, or above the app version, does not run. Blocks run
/// on the caller's thread and may throw: a block that throws is not recorded and runs again
/// next time. The migrator is thread-safe, and with a ``FileMigrationStore`` process-safe:
/// the same block never runs twice.
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
    public let freshInstall: FreshInstallPolicy
    private let target: Result<AppTarget, VersionError>
    /// The marks last read or written, for the cheap "nothing to do" check.
    private let cache = Locked<RecordedMarks?>(nil)
    /// Held while a block runs, so a concurrent caller waits and then sees it recorded.
    private let serial = RecursiveLock()
    private let logger: Logger
    private let onDiagnostic: (@Sendable (MigrationDiagnostic) -> Void)?

    /// A migrator for an app at `appVersion` (and `appBuild`).
    ///
    /// - Parameters:
    ///   - freshInstall: ``FreshInstallPolicy/runAll`` (MTMigration's behaviour) or
    ///     ``FreshInstallPolicy/baseline``.
    ///   - onDiagnostic: called for every block that could not run or be recorded; they are
    ///     also logged through `logger`.
    public init(
        appVersion: String, appBuild: String? = nil, store: any MigrationStore = UserDefaultsMigrationStore(),
        freshInstall: FreshInstallPolicy = .runAll, logger: Logger = Logger(label: "MigrationCore"),
        onDiagnostic: (@Sendable (MigrationDiagnostic) -> Void)? = nil
    ) {
        self.store = store
        self.appVersions = AppVersions(version: appVersion, build: appBuild)
        self.freshInstall = freshInstall
        self.target = Result { () throws(VersionError) in try AppTarget(version: appVersion, build: appBuild) }
        self.logger = logger
        self.onDiagnostic = onDiagnostic
    }

    /// A migrator for the versions read from a bundle or `Info.plist`.
    ///
    /// ```swift
    /// let migrator = Migrator(versions: .mainBundle(), store: UserDefaultsMigrationStore())
    /// ```
    public convenience init(
        versions: AppVersions, store: any MigrationStore = UserDefaultsMigrationStore(),
        freshInstall: FreshInstallPolicy = .runAll, logger: Logger = Logger(label: "MigrationCore"),
        onDiagnostic: (@Sendable (MigrationDiagnostic) -> Void)? = nil
    ) {
        self.init(appVersion: versions.version, appBuild: versions.build, store: store,
                  freshInstall: freshInstall, logger: logger, onDiagnostic: onDiagnostic)
    }

    /// Runs `block` once, when the app reaches `version`.
    public func migrateToVersion<E: Error>(_ version: String, _ block: () throws(E) -> Void) throws(E) {
        guard let parsed = parse(version, track: .version) else { return }
        try runOnce(.migration(.version, parsed), block)
    }

    /// Runs `block` once, when the app reaches build `build`.
    public func migrateToBuild<E: Error>(_ build: String, _ block: () throws(E) -> Void) throws(E) {
        guard let parsed = parse(build, track: .build) else { return }
        try runOnce(.migration(.build, parsed), block)
    }

    /// Runs `block` when the app version differs from the one recorded, a first launch
    /// included; then records the current version, so it runs once per version.
    public func applicationUpdateBlock<E: Error>(_ block: () throws(E) -> Void) throws(E) {
        try runOnce(.update(.version), block)
    }

    /// Runs `block` when the app build differs from the one recorded, a first launch included.
    public func buildNumberUpdateBlock<E: Error>(_ block: () throws(E) -> Void) throws(E) {
        try runOnce(.update(.build), block)
    }

    /// Forgets all four records (and the history): every block up to the app version runs again.
    public func reset() {
        serial.withLock {
            cache.withLock { $0 = nil }
            do { try store.withExclusiveAccess { try store.save(.freshInstall) } } catch {
                report(MigrationDiagnostic(call: "reset()", problem: "could not reset: \(error)"))
            }
        }
    }

    /// The shared check-then-run: a cheap check against the cached record, then, only when the
    /// block looks due, the store's lock, a fresh read, the block and the new record.
    private func runOnce<E: Error>(_ action: DropInAction, _ block: () throws(E) -> Void) throws(E) {
        let target: AppTarget
        switch self.target {
        case .success(let parsed): target = parsed
        case .failure(let error):
            return report(MigrationDiagnostic(call: action.callName, problem: "did not run: the app version is not usable: \(error)"))
        }
        let settled = cache.withLock { marks in marks.map { !action.isDue($0, target: target) } ?? false }
        if settled { return }
        try serial.withLock { () throws(E) in
            var blockError: E?
            do {
                try store.withExclusiveAccess {
                    var snapshot = try Snapshot(store.load())
                    if snapshot.state.isFreshInstall, freshInstall == .baseline {
                        snapshot = try Snapshot(.baseline(at: target))
                        try store.save(snapshot.state)
                    }
                    cache.withLock { $0 = snapshot.marks }
                    guard action.isDue(snapshot.marks, target: target) else { return }
                    let started = ContinuousClock.now
                    let outcome: Result<Double, any Error>
                    do throws(E) {
                        try block()
                        outcome = .success((ContinuousClock.now - started).seconds)
                    } catch {
                        blockError = error
                        outcome = .failure(error)
                    }
                    let next = try Snapshot(action.recording(outcome, in: snapshot.state, target: target))
                    try store.save(next.state)
                    cache.withLock { $0 = next.marks }
                }
            } catch {
                cache.withLock { $0 = nil }
                report(MigrationDiagnostic(call: action.callName, problem: "\(blockError == nil ? "did not run" : "failed"): \(error)"))
            }
            if let blockError { throw blockError }
        }
    }

    private func parse(_ text: String, track: MigrationTrack) -> Version? {
        do { return try Version(text) } catch {
            let call = track == .version ? "migrateToVersion(\"\(text)\")" : "migrateToBuild(\"\(text)\")"
            report(MigrationDiagnostic(call: call, problem: "did not run: \(error)"))
            return nil
        }
    }

    private func report(_ diagnostic: MigrationDiagnostic) {
        logger.warning("\(diagnostic.description)")
        onDiagnostic?(diagnostic)
    }

    /// A loaded state and its parsed marks, so the cheap check parses nothing.
    private struct Snapshot {
        let state: MigrationState
        let marks: RecordedMarks

        init(_ state: MigrationState) throws(MigrationStateError) {
            self.state = state
            self.marks = try RecordedMarks(state)
        }
    }
}

extension MigrationState {
    /// A fresh install under the baseline policy: every mark at the target, nothing to run.
    static func baseline(at target: AppTarget) -> MigrationState {
        MigrationState(
            lastMigratedVersion: target.version.text, lastMigratedBuild: target.build?.text,
            lastAppVersion: target.version.text, lastAppBuild: target.build?.text, historyIsComplete: true
        )
    }
}
