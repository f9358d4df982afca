import Foundation
import MigrationCore
import Testing
@testable import MigrationExplorer

/// What a run would execute (a step's SQL, its command and timeout) is shown before it runs:
/// in `run --dry-run`, in the terminal UI's details pane, dry-run and run confirmation.
@Suite("Shown before it runs")
struct ShownBeforeRunTests {
    static let size = Size(width: 100, height: 30)

    /// A manifest with a command (and timeout), a SQL migration and a hook's command.
    func manifest(in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("manifest.json")
        try #"""
        { "app": "Notes", "appVersion": "1.0",
          "migrations": [
            { "version": "0.9", "title": "Add GUIDs", "run": "./scripts/add-guids.sh --all", "timeout": 45 },
            { "version": "1.0", "title": "Pin notes", "sql": "ALTER TABLE notes ADD pinned INTEGER;\nUPDATE notes SET pinned = 0;" }
          ],
          "onUpdate": [ { "title": "Stats", "run": "./scripts/reset-stats.sh" } ]
        }
        """#.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func dryRunShowsEachStepsCommandTimeoutAndSQL() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try manifest(in: folder)
        let result = try await Executable.run(["run", "--dry-run", "--manifest", manifest.path, "--from", "0.8",
                                         "--sqlite", folder.appendingPathComponent("app.db").path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("run: ./scripts/add-guids.sh --all (timeout 45 s)"))
        #expect(result.stdout.contains("sql: ALTER TABLE notes ADD pinned INTEGER;"))
        #expect(result.stdout.contains("UPDATE notes SET pinned = 0;"))
        #expect(result.stdout.contains("run: ./scripts/reset-stats.sh"))
    }

    func session(in folder: URL) async throws -> Session {
        let app = try ExplorerApp(manifestAt: try manifest(in: folder).path)
        return await Session.opened(explorer: try Explorer(app: app, options: ExplorerOptions(from: try Version("0.8"))))
    }

    @Test func theDetailsPaneShowsTheSelectedStepsCommand() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try await session(in: folder)
        let screen = Render.screen(session.state, size: Self.size, unicode: true).text
        #expect(screen.contains("run: ./scripts/add-guids.sh --all (timeout 45 s)"))
    }

    @Test func theTerminalUIsDryRunShowsEveryCommand() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var session = try await session(in: folder)
        await session.press(.dryRun, size: Self.size)
        let screen = Render.screen(session.state, size: Self.size, unicode: true).text
        #expect(screen.contains("run: ./scripts/add-guids.sh --all (timeout 45 s)"))
        #expect(screen.contains("sql: ALTER TABLE notes ADD pinned INTEGER;"))
    }

    @Test func theRunsConfirmationNamesWhatItExecutes() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var session = try await session(in: folder)
        await session.press(.runPending, size: Self.size)
        guard case .confirm(.run) = session.state.overlay else { Issue.record("no confirmation"); return }
        let screen = Render.screen(session.state, size: Self.size, unicode: true).text
        #expect(screen.contains("It executes:"))
        #expect(screen.contains("0.9: run: ./scripts/add-guids.sh --all (timeout 45 s)"))
        #expect(screen.contains("onUpdate: run: ./scripts/reset-stats.sh"))
    }
}

/// What a manifest's command is told about the upgrade it is part of.
@Suite("Command environment")
struct CommandEnvironmentTests {
    @Test func aCommandIsToldThePreviousMarkAndTheVersionTheDeviceUpgradedFrom() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let record = #"echo \"$MIGRATION_VERSION from=$MIGRATION_FROM upgrade-from=$MIGRATION_UPGRADE_FROM to=$MIGRATION_TO\" >> seen.txt"#
        try """
        { "app": "Notes", "appVersion": "1.0", "migrations": [
            { "version": "0.9", "title": "one", "run": "\(record)" },
            { "version": "1.0", "title": "two", "run": "\(record)" } ] }
        """.write(to: folder.appendingPathComponent("m.json"), atomically: true, encoding: .utf8)
        let store = folder.appendingPathComponent("state.json").path
        #expect(try await Executable.run(["set", "--store", store, "--version", "0.8"]).status == 0)
        let result = try await Executable.run(["run", "--manifest", "m.json", "--store", store], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let seen = try String(contentsOf: folder.appendingPathComponent("seen.txt"), encoding: .utf8)
        #expect(seen == "0.9 from=0.8 upgrade-from=0.8 to=1.0\n1.0 from=0.9 upgrade-from=0.8 to=1.0\n")
    }
}
