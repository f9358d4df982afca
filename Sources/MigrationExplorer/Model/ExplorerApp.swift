import MigrationCore

/// An app whose migrations the explorer shows: its registry and its current version, plus
/// the device the explorer starts from when none is named.
///
/// ```swift
/// var registry = MigrationRegistry(appName: "Notes")
/// registry.migrate(toVersion: "1.0", title: "Add GUIDs") { _ in }
/// let app = ExplorerApp(registry: registry, appVersion: "1.0", appBuild: "120")
/// ```
public struct ExplorerApp: Sendable {
    /// The app's migrations and update hooks.
    public var registry: MigrationRegistry
    /// The version the app is at now: the default upgrade target.
    public var appVersion: String
    /// The build the app is at now (`CFBundleVersion`), if it has builds: the default build target.
    public var appBuild: String?
    /// The device to simulate when `--from` is not given; `nil` is a fresh install.
    public var defaultFrom: String?
    /// The build of the device to simulate when `--from-build` is not given.
    public var defaultFromBuild: String?
    /// The build each of the registry's releases shipped with, where known: a device that last
    /// ran a release (a row of the upgrade matrix) has that build recorded.
    ///
    /// ```swift
    /// app.releaseBuilds = [try Version("0.9"): try Version("95")]
    /// ```
    public var releaseBuilds: [Version: Version] = [:]
    /// Called with the recorded state of each device the explorer starts playing (at start,
    /// after a reset, after a new "from"), for an app whose migrations change real data: it
    /// puts that data back as such a device has it, so a run after a reset does what the
    /// first one did. The built-in demo rewrites its notes file.
    public var prepareDevice: (@Sendable (MigrationState) -> Void)?

    /// What its migrations do for real even against a sandbox, where only their records are
    /// simulated: a manifest's commands, an app's own code; `nil` for none (the built-in demo,
    /// a manifest without commands). A sandbox run of such migrations asks first (`run --yes`).
    public var sandboxRunsForReal: RealWork?

    /// What a sandbox cannot hold back.
    ///
    /// ```swift
    /// let app = ExplorerApp(registry: registry, appVersion: "1.0", sandboxRunsForReal: .appCode)
    /// ```
    public enum RealWork: Sendable, Equatable {
        /// A manifest's `run` commands.
        case commands
        /// The app's own migration bodies (``MigrationExplorer/main(registry:appVersion:appBuild:arguments:)``).
        case appCode

        /// "the commands run for real and only the records are simulated", for questions.
        var warning: String {
            switch self {
            case .commands: "the commands run for real and only the records are simulated"
            case .appCode: "the migrations' code runs for real and only the records are simulated"
            }
        }
    }

    /// The manifest's migrations that run SQL (`migrations[2] (version 1.1 "Pin notes")`):
    /// they need a SQLite store, whose database they change in the transaction that records them.
    public var sqlMigrations: [String] = []

    /// What each step of a manifest runs (its SQL, its command), shown before it runs.
    package var actions = StepActions()

    /// An app at `appVersion` (and `appBuild`) with `registry`'s migrations; the versions are
    /// read when an ``Explorer`` opens it, so one that is not a version is reported then.
    public init(
        registry: MigrationRegistry, appVersion: String, appBuild: String? = nil,
        defaultFrom: String? = nil, defaultFromBuild: String? = nil,
        prepareDevice: (@Sendable (MigrationState) -> Void)? = nil, sandboxRunsForReal: RealWork? = nil
    ) {
        self.registry = registry
        self.appVersion = appVersion
        self.appBuild = appBuild
        self.defaultFrom = defaultFrom
        self.defaultFromBuild = defaultFromBuild
        self.prepareDevice = prepareDevice
        self.sandboxRunsForReal = sandboxRunsForReal
    }
}
