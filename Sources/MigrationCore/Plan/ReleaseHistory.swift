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
    /// history is guessed (``MigrationState/device(at:build:)``) and ``SimulatedDevice/note``
    /// says so.
    public func device(lastRan version: Version?, build: Version? = nil) -> SimulatedDevice {
        guard let version else { return SimulatedDevice(state: .device(at: nil, build: build), note: nil) }
        guard releases.contains(version) else {
            let known = releases.isEmpty
                ? "no release history is declared"
                : "\(version.text) is not a shipped release (\(releases.sorted().map(\.text).joined(separator: ", ")))"
            return SimulatedDevice(state: .device(at: version, build: build),
                                   note: "\(known): its history is guessed, everything at or below it counts as applied")
        }
        return SimulatedDevice(state: MigrationRule.replay(self, through: version, build: build), note: nil)
    }
}

extension MigrationRule {
    /// The state a device records by running every release of `registry` up to `last` in
    /// order, each release planning and running the version migrations its code contains (the
    /// usual rule: ``shouldRun(_:lastMigrated:app:)``, duplicates counted within that
    /// release's code). Builds have no release history: the build track is at `build`, every
    /// build migration up to it recorded as applied.
    static func replay(_ registry: MigrationRegistry, through last: Version, build: Version?, at date: Date = Date()) -> MigrationState {
        var state = MigrationState.freshInstall
        for release in Set(registry.releases).sorted() where release <= last {
            let shipped = registry.shipped(in: release)
            let plan = try? MigrationPlan(registry: shipped, state: state, target: AppTarget(version: release))
            for entry in plan?.pending ?? [] {
                guard let version = entry.migration.version else { continue }
                record(.migration(.version, version), title: entry.migration.title, failure: nil, duration: 0, app: release,
                       in: &state, at: date)
            }
        }
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
}

extension MigrationRegistry {
    /// The version migrations the code of `release` contained (`since` ≤ `release`), declared
    /// in the same order.
    func shipped(in release: Version) -> MigrationRegistry {
        var shipped = MigrationRegistry(appName: appName)
        for migration in migrations where migration.track == .version {
            guard let since = migration.shippedSince, since <= release else { continue }
            shipped.migrate(toVersion: migration.declared, title: migration.title, notes: migration.notes,
                            whatsNew: migration.whatsNew, since: migration.sinceDeclared, body: migration.body)
        }
        return shipped
    }
}
