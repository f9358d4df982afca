import Foundation

/// A simulated device: the state it has recorded, and whether that history is known (replayed
/// from the app's releases) or guessed.
///
/// ```swift
/// let device = registry.device(lastRan: try Version("0.8"))
/// let plan = try MigrationPlan(registry: registry, state: device.state, target: try AppTarget(version: "1.0"))
/// if let note = device.note { print(note) }   // nil: 0.8 is a shipped release
/// ```
public struct SimulatedDevice: Sendable, Equatable {
    /// What the device has recorded: its marks and history.
    public let state: MigrationState
    /// Why its history is guessed (everything at or below its marks counts as applied), when it is.
    public let note: String?

    /// Whether its history is what replaying the releases recorded.
    public var historyIsKnown: Bool { note == nil }
}

extension MigrationRegistry {
    /// The device that last ran app version `version` (and build `build`); `nil` for both is a
    /// fresh install.
    ///
    /// When `version` is one of ``releases``, its history is what replaying the releases up to
    /// it in order recorded, each release running the migrations its code contained (`since` ≤
    /// that release) by ``MigrationRule/shouldRun(_:lastMigrated:app:)``: so a migration added
    /// later at or below its high-water mark shows as skipped, out of order. Otherwise the
    /// history is guessed (``MigrationState/device(at:build:)``, with a `reset` record naming
    /// `version`, so that a migration shipped after it stays out of order after a run) and
    /// ``SimulatedDevice/note`` says so.
    ///
    /// ```swift
    /// registry.releases = try ["0.8", "0.9", "0.10"].map { try Version($0) }
    /// let device = registry.device(lastRan: try Version("0.10"))   // device.note == nil: a shipped release
    /// ```
    public func device(lastRan version: Version?, build: Version? = nil) -> SimulatedDevice {
        guard let version else { return SimulatedDevice(state: .device(at: nil, build: build), note: nil) }
        guard releases.contains(version) else {
            let known = releases.isEmpty
                ? "no release history is declared"
                : "\(version.text) is not a shipped release (\(releases.sorted().map(\.text).joined(separator: ", ")))"
            var state = MigrationState.device(at: version, build: build)
            state.history = [MigrationRule.setRecord(version: version, build: build, leaving: state, at: Date())]
            return SimulatedDevice(state: state,
                                   note: "\(known): its history is guessed, everything at or below it counts as applied unless it shipped later (since)")
        }
        return SimulatedDevice(state: MigrationRule.replay(self, through: version, build: build), note: nil)
    }
}

extension MigrationRegistry {
    /// The device recorded in `recorded`, as if it had last run app version `version` (and
    /// build `build`): its marks are those of ``device(lastRan:build:)`` (for a shipped release,
    /// the replayed device's: its high-water mark may be below `version` when that release's
    /// code did not contain its own migration), so that its next launch replays the upgrade
    /// from there, and a plan over it agrees with the simulation. The history stays, closed by a
    /// `reset` record since what it says ran does not describe that device: update hooks fire
    /// again, and out-of-order migrations are judged by the app version it names (see
    /// ``NeverRan``). `nil` for both leaves the marks as recorded.
    ///
    /// ```swift
    /// let simulated = registry.device(lastRan: try Version("0.8"), over: try store.load())
    /// try store.update { $0 = registry.device(lastRan: try Version("0.8"), build: try Version("90"), over: $0) }
    /// ```
    public func device(lastRan version: Version?, build: Version? = nil, over recorded: MigrationState, date: Date = Date()) -> MigrationState {
        var state = recorded
        state.historyIsComplete = false
        guard version != nil || build != nil else { return state }
        let device = self.device(lastRan: version, build: build).state
        if version != nil {
            state.lastMigratedVersion = device.lastMigratedVersion
            state.lastAppVersion = device.lastAppVersion
        }
        if build != nil {
            state.lastMigratedBuild = device.lastMigratedBuild
            state.lastAppBuild = device.lastAppBuild
        }
        state.history.append(MigrationRule.setRecord(version: version, build: build, leaving: state, at: date))
        return state
    }
}

extension MigrationRule {
    /// The `reset` record that closes a device's history when it is set to one that last ran
    /// `version` and `build`, leaving `state`'s marks: records before it no longer count, and it
    /// names the app version the device last ran, which the records after it cannot tell (see
    /// ``appVersionBeforeHistory(of:)``).
    static func setRecord(version: Version?, build: Version?, leaving state: MigrationState, at date: Date) -> MigrationRecord {
        let described = [version.map { "version \($0.text)" }, build.map { "build \($0.text)" }].compactMap { $0 }
        return MigrationRecord(
            subject: .reset, identifier: lastAppVersionRun(by: state)?.text, title: "set to a device at " + described.joined(separator: ", "),
            date: date, duration: 0, outcome: .succeeded)
    }

    /// The version migrations a device that followed the releases up to `app` ran, when `app`
    /// (the last app version it ran before its history began, see ``PriorHistory``) is one of
    /// `registry`'s releases: a migration at or below its mark that the replay never ran is
    /// out of order. `nil`: no release history applies.
    static func ranOnReplay(_ registry: MigrationRegistry, through app: Version) -> Set<Version>? {
        guard registry.releases.contains(app) else { return nil }
        let replayed = replay(registry, through: app, build: nil, at: Date(timeIntervalSince1970: 0))
        return Set(replayed.history.compactMap { record in
            record.subject == .versionMigration ? record.identifier.flatMap { try? Version($0) } : nil
        })
    }

    /// The state a device records by running every release of `registry` up to `last` in
    /// order, each release planning and running the version migrations its code contains (the
    /// usual rule: ``shouldRun(_:lastMigrated:app:)``, duplicates counted within that
    /// release's code). Builds have no release history: the build track is at `build`, every
    /// build migration up to it recorded as applied.
    static func replay(_ registry: MigrationRegistry, through last: Version, build: Version?, at date: Date = Date()) -> MigrationState {
        var state = replayReleases(of: registry, through: last, at: date) { _, _ in }
        if let build {
            let builds = try? MigrationPlan(registry: registry, state: .freshInstall, target: AppTarget(version: .zero, build: build))
            for entry in builds?.pending ?? [] where entry.migration.track == .build {
                guard let version = entry.migration.version else { continue }
                record(.migration(.build, version), title: entry.migration.title, failure: nil, duration: 0, app: build, in: &state, at: date)
            }
            state.lastMigratedBuild = build.text
            state.lastAppBuild = build.text
        }
        state.lastAppVersion = last.text
        return state
    }

    /// Replays the releases of `registry` in ascending order, up to `last` (`nil`: all of
    /// them), each release running the version migrations its code contains; `visit` sees
    /// each release with the device that last ran it (``replay(_:through:build:at:)`` with no
    /// build). The state after the last release, its app version not set.
    ///
    /// What a plan of each release's code would run, worked out in one pass over the releases
    /// and one over the migrations: a migration falls due at the first release that contains
    /// it (`since`) and is at or above its version; it runs then if it is above the mark, the
    /// first declared of its version among those due (a duplicate declared earlier that fell due
    /// sooner ran, or was passed, at or above the mark: this one is too), in version order.
    static func replayReleases(
        of registry: MigrationRegistry, through last: Version?, at date: Date, visit: (Version, MigrationState) -> Void
    ) -> MigrationState {
        let releases = Set(registry.releases).sorted()
        var due = [[(version: Version, migration: RegisteredMigration)]](repeating: [], count: releases.count)
        for migration in registry.migrations where migration.track == .version {
            guard let version = migration.version, let since = migration.shippedSince else { continue }
            let first = releases.firstIndex(atOrAbove: max(version, since))
            if first < releases.count { due[first].append((version, migration)) }
        }
        var state = MigrationState.freshInstall
        var mark: Version?
        for (index, release) in releases.enumerated() {
            if let last, release > last { break }
            let runs = due[index].filter { candidate in mark.map { candidate.version > $0 } ?? true }
                .sorted { ($0.version, $0.migration.id) < ($1.version, $1.migration.id) }
            for (position, run) in runs.enumerated() where position == 0 || runs[position - 1].version != run.version {
                record(.migration(.version, run.version), title: run.migration.title, failure: nil, duration: 0, app: release,
                       in: &state, at: date)
                mark = run.version
            }
            var device = state
            device.lastAppVersion = release.text
            visit(release, device)
        }
        return state
    }
}

extension Array where Element == Version {
    /// The index of the first version at or above `version` in this ascending list; `count`
    /// when there is none. A binary search.
    fileprivate func firstIndex(atOrAbove version: Version) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < version { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
