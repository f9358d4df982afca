import Foundation
import MigrationCore
import Testing
@testable import MigrationExplorer

/// Counts read as English: the noun agrees with its number, the verb with the count that does
/// it ("1 of 3 hooks fires"), and a header with one hook or none says so rather than counting
/// "0 of 0"; the JSON, which scripts read, keeps its fields as they are.
@Suite("Count wording")
struct CountWordingTests {
    /// Update hooks that fire (version hooks, on a fresh install) and some that do not (build
    /// hooks of an app without builds), with one pending migration.
    struct Hooks: CustomTestStringConvertible, Sendable {
        let firing: Int
        let silent: Int
        /// The TUI header's words and the `plan` summary's.
        let header: String
        let summary: String
        var testDescription: String { header }

        var registry: MigrationRegistry {
            var registry = MigrationRegistry(appName: "Notes")
            registry.migrate(toVersion: "1.0", title: "Import")
            for index in 0..<firing { registry.onUpdate(title: "Fires \(index)") }
            for index in 0..<silent { registry.onBuildUpdate(title: "Silent \(index)") }
            return registry
        }
    }

    static let hooks = [
        Hooks(firing: 1, silent: 0, header: "1 hook fires", summary: "1 pending, 1 hook fires"),
        Hooks(firing: 2, silent: 1, header: "2 of 3 hooks fire", summary: "1 pending, 2 hooks fire"),
        Hooks(firing: 1, silent: 2, header: "1 of 3 hooks fires", summary: "1 pending, 1 hook fires"),
        Hooks(firing: 0, silent: 1, header: "1 hook does not fire", summary: "1 pending, 0 hooks fire"),
        Hooks(firing: 0, silent: 3, header: "0 of 3 hooks fire", summary: "1 pending, 0 hooks fire"),
        Hooks(firing: 2, silent: 0, header: "2 of 2 hooks fire", summary: "1 pending, 2 hooks fire"),
        Hooks(firing: 0, silent: 0, header: "no hooks", summary: "1 pending, 0 hooks fire"),
    ]

    func explorer(_ hooks: Hooks) throws -> Explorer {
        try Explorer(app: ExplorerApp(registry: hooks.registry, appVersion: "1.0"), options: ExplorerOptions())
    }

    @Test("the terminal UI's header", arguments: hooks)
    func header(_ hooks: Hooks) async throws {
        let session = await Session.opened(explorer: try explorer(hooks))
        let header = Render.screen(session.state, size: Size(width: 80, height: 24), unicode: true).text.split(separator: "\n")[1]
        #expect(header.hasPrefix(" 1 pending · \(hooks.header)  "), "\(header)")
    }

    @Test("the plan's text summary", arguments: hooks)
    func planSummary(_ hooks: Hooks) throws {
        let explorer = try explorer(hooks)
        let lines = TextReports.plan(try explorer.plan(), explorer: explorer, style: ConsoleStyle(color: false, glyphs: Glyphs(unicode: true)))
        #expect(lines.last == hooks.summary)
    }

    @Test func theRunSummaryAndReportSayStepForOne() async throws {
        var session = await Session.opened(explorer: try explorer(Hooks(firing: 0, silent: 0, header: "", summary: "")))
        await session.press(.dryRun, size: Size(width: 80, height: 24))
        #expect(session.state.message?.text == "Dry run: 1 step would run; nothing was run or written")
        await session.handle(.escape, size: Size(width: 80, height: 24))
        await session.press(.runPending, size: Size(width: 80, height: 24))
        #expect(session.state.message?.text.hasPrefix("Ran 1 step in ") == true)
        #expect(Render.screen(session.state, size: Size(width: 80, height: 24), unicode: true).text.contains("Ran 1 step:"))
    }

    @Test func planFromTheCommandLineSaysOneHookFiresAndItsJSONKeepsItsFields() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("manifest.json")
        try manifest.write(#"{ "app": "Notes", "appVersion": "1.0", "migrations": [ { "version": "1.0", "title": "Import" } ], "onUpdate": [ { "title": "Stats" } ] }"#)
        let text = try await Executable.run(["plan", "--manifest", manifest.path], environment: ["LANG": "C.UTF-8"])
        #expect(text.status == 0)
        #expect(text.stdout.hasSuffix("\n1 pending, 1 hook fires\n"), "\(text.stdout)")
        let json = try await Executable.run(["plan", "--manifest", manifest.path, "--json"])
        #expect(json.status == 0)
        #expect(json.stdout == """
            {
              "app" : "Notes",
              "from" : null,
              "historyNote" : null,
              "hooks" : [
                {
                  "fires" : true,
                  "kind" : "onUpdate",
                  "title" : "Stats"
                }
              ],
              "migrations" : [
                {
                  "reason" : null,
                  "status" : "pending",
                  "title" : "Import",
                  "version" : "1.0"
                }
              ],
              "problems" : [],
              "runsGoingOn" : [],
              "to" : "1.0",
              "unwritableStore" : null
            }

            """, "\(json.stdout)")
    }
}
