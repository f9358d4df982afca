import ArgumentParser
import Foundation
import MigrationCore

/// `set`: records in a real store a device that last ran a version (and build), marks of the
/// app version included (``MigrationRegistry/device(lastRan:build:over:date:)``): for one of
/// the app's releases, the marks the replay of the releases leaves, so that the app's next
/// launch replays the upgrade from there for real, as `matrix` and `plan --from` show it.
struct SetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Make a real store a device that last ran a version, so that the next launch replays the upgrade.",
        discussion: """
        Sets the last migrated version and the last app version (with --build, the build marks \
        too) of the store's domain; the history is kept but no longer counts, so the update \
        hooks fire again. For one of the app's releases the last migrated version is where \
        replaying the releases leaves it (below the release when its code lacked its own \
        migration), as `matrix` and `plan --from` show it. A run on the same store is waited for \
        (saying so on stderr), so the marks are set before the run starts or after it ends, never \
        between two of its steps. Quit the app first: a running app keeps its defaults in memory. \
        In a preferences plist, marks under older spellings of MTMigration's keys \
        (lastMigrationVersion, Migration.lastVersion, …) are removed, and named: reading takes \
        the highest mark of every spelling, so one left behind would outrank the marks set.
        """)

    @OptionGroup var stores: StoreOptions
    @Option(help: ArgumentHelp("A JSON manifest of migrations, whose releases say the device's marks (default: the app's own registry, or the built-in demo).", valueName: "file"))
    var manifest: String?
    @Option(help: ArgumentHelp("The version the device last ran.", valueName: "version")) var version: VersionArgument?
    @Option(help: ArgumentHelp("The build the device last ran.", valueName: "build")) var build: VersionArgument?
    @Flag(help: "Write JSON instead of text.") var json = false

    func validate() throws {
        guard stores.namesStore else { throw ValidationError("name the store to set: \(stores.optionList)") }
        if version == nil, build == nil { throw ValidationError("give the device's --version, its --build, or both") }
    }

    func run() async throws {
        try await reportingFailures(json: json, store: stores.path) {
            var failures: [CommandFailure] = []
            let (version, build) = (version.version(of: "--version", failures: &failures), build.version(of: "--build", failures: &failures))
            var app: ExplorerApp?
            do throws(CommandFailure) { app = try ExplorerRequest.app(manifest: manifest) } catch { failures.append(error) }
            var location: StoreLocation?
            do throws(CommandFailure) { location = try stores.location() } catch { failures.append(error) }
            guard failures.isEmpty, let app, let location else { throw CommandFailure(combining: failures) }
            let store = location.open()
            // A store that cannot be read fails here, and one that cannot be written in
            // `withoutRuns`, both before its lock file is created.
            _ = try store.load()
            let (state, removed) = try store.withoutRuns(onWait: { Program.reportWaitingForRun(on: location.path, before: "setting it") }) {
                let older = try store.supersededMarks()
                return (try store.update { $0 = app.registry.device(lastRan: version, build: build, over: $0) }, older)
            }
            let outcome = SetOutcome(location: location, state: state, version: version, buildGiven: build != nil, removed: removed)
            StandardStreams.print(json ? JSONReports.encode(outcome) : outcome.lines.joined(separator: "\n"))
        }
    }
}

/// What `set` recorded, as text or JSON.
struct SetOutcome: Encodable {
    let store: String
    let domain: Nullable<String>
    let state: JSONReports.State
    let error: Nullable<String> = Nullable(nil)
    private let marks: [String]
    private let keptBuild: Bool
    /// The version given, when replaying the releases left the last migrated version elsewhere.
    private let replayedFrom: Version?
    private let replayedMark: String?
    /// Marks under older spellings of the keys, removed: key and value.
    private let removed: [(key: String, value: String)]

    init(location: StoreLocation, state: MigrationState, version: Version?, buildGiven: Bool, removed: [(key: String, value: String)] = []) {
        self.removed = removed
        store = location.path
        domain = Nullable(location.backend.domain)
        self.state = JSONReports.State(state)
        marks = state.markPhrases
        keptBuild = !buildGiven && state.lastMigratedBuild != nil
        replayedFrom = version.flatMap { state.lastMigratedVersion.flatMap(Version.init(leadingComponentsOf:)) == $0 ? nil : $0 }
        replayedMark = state.lastMigratedVersion
    }

    enum CodingKeys: String, CodingKey { case store, domain, state, error }

    var lines: [String] {
        let domainText = domain.value.map { ", domain \"\($0)\"" } ?? ", \(StoreLocation.mtMigrationKeys)"
        var lines = [
            "Set \(store)\(domainText): \(marks.joined(separator: ", ")).",
            "The app's next launch replays the upgrade from there: every migration above these marks up to the app's version runs, and the update hooks fire.",
        ]
        if let replayedFrom {
            let mark = replayedMark ?? "none"
            lines.append("The last migrated version (\(mark)) is where replaying the app's releases up to \(replayedFrom.text) leaves it: migrations above it still run, as `matrix` shows.")
        }
        if keptBuild { lines.append("The build marks are as they were recorded; give --build to set them too.") }
        if !removed.isEmpty {
            let keys = removed.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
            lines.append("Removed \(keys): \(removed.count.agreeing("an older spelling", "older spellings")) of MTMigration's keys; "
                + "reading takes the highest mark of every spelling, so \(removed.count.agreeing("it", "they")) would outrank the marks set.")
        }
        return lines
    }
}
