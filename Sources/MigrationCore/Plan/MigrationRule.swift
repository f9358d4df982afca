import Foundation

/// The rules of MTMigration, and this package's own, in one place. Every plan, run, dry-run,
/// simulation and the drop-in ``Migrator`` ask these functions; nothing else decides what
/// runs, what a status is, or what a step, a baseline or a reset records.
///
/// ```swift
/// let app = try Version("2.0")
/// MigrationRule.shouldRun(try Version("1.10"), lastMigrated: try Version("1.9"), app: app)   // true
/// MigrationRule.shouldRun(try Version("2.1"), lastMigrated: nil, app: app)                  // false: above the app
/// MigrationRule.updateHooksFire(recorded: try Version("1.0"), current: try Version("1.0.0")) // false: the same version
/// ```
///
/// See <doc:TheRules> for every rule in words.
public enum MigrationRule {
    /// Whether a migration at `version` runs on a device whose high-water mark is
    /// `lastMigrated` (`nil`: nothing recorded) with the app at `app` (`nil`: unknown).
    ///
    /// It runs when `lastMigrated < version ≤ app`; with nothing recorded, every version up to
    /// the app's runs; a version above the app's never does.
    ///
    /// ```swift
    /// MigrationRule.shouldRun(try Version("1.10"), lastMigrated: try Version("1.9"), app: try Version("2.0")) // true
    /// ```
    @inlinable
    public static func shouldRun(_ version: Version, lastMigrated: Version?, app: Version?) -> Bool {
        guard let app, version <= app else { return false }
        guard let lastMigrated else { return true }
        return version > lastMigrated
    }

    /// Whether update hooks fire: the recorded app version (or build) differs from the current
    /// one, a fresh install included. With no current value (an app without builds) they don't.
    /// Versions compare numerically, so `1.0` → `1.0.0` is no update (MTMigration compares the
    /// strings and fires).
    ///
    /// ```swift
    /// MigrationRule.updateHooksFire(recorded: nil, current: try Version("1.0")) // true: first launch
    /// ```
    @inlinable
    public static func updateHooksFire(recorded: Version?, current: Version?) -> Bool {
        guard let current else { return false }
        return recorded != current
    }

    /// Whether a run against a sandbox needs a person's consent first (`run --yes`, a
    /// question): the sandbox only simulates the records, while bodies that act outside the
    /// store (a manifest's commands, an app's own code) do their work for real. A run whose
    /// plan runs no body needs none; one whose plan is unknown (`nil`) does.
    ///
    /// ```swift
    /// MigrationRule.sandboxRunNeedsConsent(plan, bodiesActForReal: manifest.runsCommands)
    /// ```
    public static func sandboxRunNeedsConsent(_ plan: MigrationPlan?, bodiesActForReal: Bool) -> Bool {
        bodiesActForReal && plan?.runsAnyBody != false
    }

    /// Whether a run under `policy` on a device in `state` is a baseline: a fresh install
    /// recorded as up to date without running anything.
    ///
    /// ```swift
    /// MigrationRule.isBaseline(.freshInstall, policy: .baseline)   // true
    /// ```
    public static func isBaseline(_ state: MigrationState, policy: FreshInstallPolicy) -> Bool {
        policy == .baseline && state.isFreshInstall
    }

    /// The state a baseline leaves: every mark at the target, so every migration up to it
    /// counts as applied (the history before it is unknown; when the target is one of the
    /// app's shipped releases, a later plan judges it as any device at that release, by the
    /// replay of the releases).
    ///
    /// ```swift
    /// let state = MigrationRule.baseline(.freshInstall, at: try AppTarget(version: "1.0"))
    /// ```
    public static func baseline(_ state: MigrationState, at target: AppTarget) -> MigrationState {
        var next = state
        next.lastMigratedVersion = target.version.text
        next.lastAppVersion = target.version.text
        next.lastMigratedBuild = target.build?.text
        next.lastAppBuild = target.build?.text
        next.historyIsComplete = false
        return next
    }

    /// `state`, or the baseline at `target` when a run under `policy` on it is one
    /// (``isBaseline(_:policy:)``): what every run, drop-in call and dry-run records before
    /// anything else. Applied to the records as they are under the store's lock, so that two
    /// launches record one baseline.
    ///
    /// ```swift
    /// try store.update { $0 = MigrationRule.baselined($0, policy: .baseline, at: target) }
    /// ```
    public static func baselined(_ state: MigrationState, policy: FreshInstallPolicy, at target: AppTarget) -> MigrationState {
        isBaseline(state, policy: policy) ? baseline(state, at: target) : state
    }

    /// Whether a device's marks alone cannot tell that no baseline is due: under the baseline
    /// policy, a device with no marks may be a fresh install, which only its history tells
    /// (``isBaseline(_:policy:)``). The launch-time checks then take the full way.
    static func mayNeedBaseline(marks: MigrationState, policy: FreshInstallPolicy) -> Bool {
        policy == .baseline && marks.hasNoMarks
    }

    /// The title of a `reset()`'s record.
    static let resetTitle = "reset"

    /// The state a reset leaves: no marks, so every block up to the app version runs again
    /// whatever the fresh-install policy, and a `reset` record after which earlier records no
    /// longer count. Resets in a row with nothing run in between (an app that resets on every
    /// launch of a debug build) keep one record, dated by the latest, that counts them
    /// (``MigrationRecord/resetCount``), so the history does not grow by a record per launch.
    ///
    /// ```swift
    /// let twice = MigrationRule.reset(MigrationRule.reset(state))
    /// twice.history.last?.resetCount   // 2
    /// ```
    public static func reset(_ state: MigrationState, at date: Date = Date()) -> MigrationState {
        var next = state
        for mark in RecordedMark.allCases { next[mark] = nil }
        let count = next.history.last.map { $0.isPlainReset ? $0.resetCount + 1 : 1 } ?? 1
        if count > 1 { next.history.removeLast() }
        next.history.append(MigrationRecord(
            subject: .reset, identifier: count > 1 ? String(count) : nil, title: resetTitle, date: date, duration: 0, outcome: .succeeded
        ))
        next.historyIsComplete = true
        return next
    }

    /// A migration's status in a plan. One at or below the mark counts as applied when it has
    /// a record of running, or when nothing says it never ran (``whyNeverRan(_:since:on:before:)``);
    /// otherwise it is out of order.
    static func status(
        of version: Version, since: Version?, on track: MigrationTrack, lastRecord: MigrationRecord?, marks: RecordedMarks,
        prior: PriorHistory, target: AppTarget, baseline: Bool
    ) throws(MigrationStateError) -> MigrationStatus {
        let app = target.value(on: track)
        if baseline {
            return app.map { version <= $0 } == true ? .applied : .skipped(.aboveAppVersion)
        }
        let last = try marks.lastMigrated(track)
        if shouldRun(version, lastMigrated: last, app: app) {
            return lastRecord?.outcome == .failed ? .failed : .pending
        }
        if let last, version <= last {
            if lastRecord.map({ $0.outcome != .failed }) == true { return .applied }
            return whyNeverRan(version, since: since, on: track, before: prior) == nil ? .applied : .skipped(.outOfOrder)
        }
        return .skipped(.aboveAppVersion)
    }

    /// Why a migration at `version` (first shipped in `since`, when declared), at or below the
    /// device's mark and with no record of running, never ran; `nil` when the records cannot
    /// tell, and it counts as applied. With a complete history it never ran. Otherwise, when
    /// the app version the device last ran before its history began is a shipped release, the
    /// replay of the releases up to it says; when not, it never ran if its code first shipped
    /// after that version (MTMigration never runs a migration below the mark).
    static func whyNeverRan(_ version: Version, since: Version?, on track: MigrationTrack, before prior: PriorHistory) -> NeverRan? {
        var shippedAfter: NeverRan?
        if track == .version, let since, let appVersion = prior.appVersion, since > appVersion {
            shippedAfter = .shippedAfter(since: since, appVersion: appVersion)
        }
        if prior.historyIsComplete { return shippedAfter ?? .noRecord }
        guard track == .version else { return nil }
        if let ranOnReplay = prior.ranOnReplay { return ranOnReplay.contains(version) ? nil : shippedAfter ?? .notOnReplay }
        return shippedAfter
    }

    /// The app version a device last ran before its recorded history began, when its records
    /// tell: the one the latest `set` made it (its `reset` record names it), else
    /// ``lastAppVersionRun(by:)``.
    static func appVersionBeforeHistory(of state: MigrationState) -> Version? {
        if let set = state.history.last(where: { $0.subject == .reset }), let named = set.identifier {
            return Version(leadingComponentsOf: named)
        }
        return lastAppVersionRun(by: state)
    }

    /// The recorded app version, the last one the device ran, unless its mark is above it (it
    /// once ran a newer release, so the newest it ran is unknown). Marks read as everywhere
    /// (`2.0b` counts as 2.0).
    static func lastAppVersionRun(by state: MigrationState) -> Version? {
        guard let app = state.lastAppVersion.flatMap(Version.init(leadingComponentsOf:)) else { return nil }
        let mark = state.lastMigratedVersion.flatMap(Version.init(leadingComponentsOf:))
        return mark.map { $0 <= app } ?? true ? app : nil
    }

    /// Whether a registry's update hook titled `title` already succeeded for this update (the
    /// app at `app`), so that it never runs twice when a later hook fails or the process dies.
    static func hookRan(_ title: String, on track: MigrationTrack, for app: Version, in history: [MigrationRecord]) -> Bool {
        for record in history.reversed() {
            if record.subject == .reset { return false }
            guard record.subject == track.hookSubject else { continue }
            guard let identifier = record.identifier, Version(leadingComponentsOf: identifier) == app else { return false }
            if record.title == title, record.outcome == .succeeded { return true }
        }
        return false
    }

    /// Records that the update to `app` on `track` is done: its update hooks will not fire
    /// again until the app changes. A drop-in update block does it as soon as it succeeds
    /// (MTMigration's behaviour); a registry run once every hook of the track has run.
    static func recordUpdate(to app: Version, on track: MigrationTrack, in state: inout MigrationState) {
        state[.lastApp(track)] = app.text
    }

    /// The failure rule: whether a migration at `version` is held back by the failure of the
    /// one at `failed` on its track. After a block fails, no higher block of its track runs
    /// until it has succeeded: later in the same launch, or on the next one, when it and
    /// everything after it run in order. Migrations are ordered because later ones build on
    /// earlier ones (GRDB's `DatabaseMigrator` and Flyway hold the same rule).
    ///
    /// ```swift
    /// MigrationRule.isHeldBack(try Version("1.1"), byFailureOf: try Version("1.0"))   // true
    /// ```
    public static func isHeldBack(_ version: Version, byFailureOf failed: Version) -> Bool {
        failed < version
    }

    /// Whether a body that ended with `failure` leaves a record: every success and failure
    /// does, a cancelled body (`CancellationError`) does not, so it stays due as if it never ran.
    static func isRecorded(failure: (any Error)?) -> Bool {
        !(failure is CancellationError)
    }

    /// The state after `step` ran: its record appended and, on success, its mark raised.
    /// Merged into whatever is recorded now, so that concurrent and nested steps lose nothing.
    static func record(
        _ step: BlockStep, title: String, failure: (any Error)?, duration: Double, app: Version?,
        in state: inout MigrationState, at date: Date = Date()
    ) {
        let identifier: String?
        switch step {
        case .migration(let track, let version):
            identifier = version.text
            let current = state.lastMigrated(track).flatMap(Version.init(leadingComponentsOf:))
            if failure == nil, current.map({ version > $0 }) ?? true {
                state[.lastMigrated(track)] = version.text
            }
        case .update(let track, let hook):
            identifier = app?.text
            if failure == nil, hook == nil, let app { recordUpdate(to: app, on: track, in: &state) }
        }
        state.history.append(MigrationRecord(
            subject: step.recordSubject, identifier: identifier, title: title, date: date, duration: duration,
            outcome: failure == nil ? .succeeded : .failed, error: failure.map { String(describing: $0) }
        ))
    }
}
