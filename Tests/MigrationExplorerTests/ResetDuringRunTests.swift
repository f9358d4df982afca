import Foundation
import MigrationTestSupport
import MigrationCore
import Testing
@testable import MigrationExplorer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `reset` or `set` made in the middle of a `run` on the same store: the change waits for
/// the whole run, not only the step going on, and says so, and the store ends as the run
/// followed by the change leaves it, on every store the command line takes.
@Suite("A reset or set during a run")
struct ResetDuringRunTests {
    enum Store: String, CaseIterable, CustomTestStringConvertible {
        case stateFile = "--store", sqlite = "--sqlite", defaultsPlist = "--defaults-plist"

        var testDescription: String { rawValue }
        var arguments: [String] { [rawValue, self == .defaultsPlist ? "prefs.plist" : self == .sqlite ? "app.sqlite" : "state.json"] }
    }

    enum Change: String, CaseIterable, CustomTestStringConvertible {
        case reset, set

        var testDescription: String { rawValue }
        var arguments: [String] { self == .reset ? ["reset"] : ["set", "--manifest", "manifest.json", "--version", "0.3"] }
        var waiting: String { self == .reset ? "before resetting it…" : "before setting it…" }
    }

    /// Six migrations, each logging its start and end, and an update hook; 0.3 goes on only
    /// once the file `go` is in the folder, so that a change can be started in the middle of
    /// the run, and seen waiting, whatever the machine's speed.
    static func manifest(in folder: URL) throws {
        let migrations = (1...6).map { version in
            let gate = version == 3 ? "while [ ! -e go ]; do sleep 0.05; done; " : ""
            return #"{ "version": "0.\#(version)", "title": "m\#(version)", "run": "echo start 0.\#(version) >> log; \#(gate)echo end 0.\#(version) >> log" }"#
        }
        try folder.appendingPathComponent("manifest.json").write("""
            { "appVersion": "1.0", "migrations": [\(migrations.joined(separator: ", "))], "onUpdate": [ { "title": "hook", "run": "true" } ] }
            """)
    }

    /// What the store records, as `plan` shows it: the last migrated version, each migration's
    /// status and whether the hook fires.
    static func outcome(_ store: Store, in folder: URL) async throws -> String {
        let plan = try await Executable.run(["plan", "--manifest", "manifest.json", "--json"] + store.arguments, in: folder)
        let json = try plan.json()
        let statuses = (json["migrations"] as? [[String: Any]] ?? []).map { "\($0["version"] ?? "") \($0["status"] ?? "") \($0["reason"] ?? "")" }
        let hooks = (json["hooks"] as? [[String: Any]] ?? []).map { "hook fires: \($0["fires"] ?? "")" }
        return (["from \(json["from"] ?? "")"] + statuses + hooks).joined(separator: "\n")
    }

    /// A fresh folder with the manifest.
    static func folder() throws -> URL {
        let folder = try makeTemporaryFolder()
        try manifest(in: folder)
        return folder
    }

    /// Starts the change in `folder` with its standard error going to the file `change.err`
    /// there, so that what it says can be read while it waits.
    static func startChange(_ arguments: [String], in folder: URL) async throws -> Executable.Running {
        try await Executable.start(["-c", #"exec "$0" "$@" 2> change.err"#, Executable.url.path] + arguments, in: folder,
                             binary: URL(fileURLWithPath: "/bin/sh"))
    }

    @Test(arguments: Store.allCases, Change.allCases)
    func aResetOrSetBetweenTwoStepsOfARunWaitsForItAndSaysSo(store: Store, change: Change) async throws {
        let serial = try Self.folder()
        defer { try? FileManager.default.removeItem(at: serial) }
        try serial.appendingPathComponent("go").write("")
        #expect(try await Executable.run(["run", "--manifest", "manifest.json"] + store.arguments, in: serial).status == 0)
        #expect(try await Executable.run(change.arguments + store.arguments, in: serial).status == 0)
        let runThenChange = try await Self.outcome(store, in: serial)

        for round in 1...2 {
            let folder = try Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let run = try await Executable.start(["run", "--manifest", "manifest.json"] + store.arguments, in: folder)
            let log = folder.appendingPathComponent("log")
            #expect(await waitUntil { log.textIfAny.contains("start 0.3") }, "round \(round): step 0.3 never started")
            // The change comes while 0.1 and 0.2 are recorded and 0.3 to 0.6 are still to run;
            // the run goes on once the change has said it waits (or has ended without waiting).
            let changing = try await Self.startChange(change.arguments + store.arguments, in: folder)
            let said = folder.appendingPathComponent("change.err")
            let waiting = "waiting for the run on \(store.arguments[1]) to finish \(change.waiting)"
            #expect(await waitUntil { said.textIfAny.contains(waiting) || !changing.isRunning }, "round \(round): the change neither waited nor ended")
            try folder.appendingPathComponent("go").write("")
            let ran = await run.finish(), changed = await changing.finish()
            #expect(ran.status == 0, "round \(round): \(ran.stderr)")
            #expect(changed.status == 0, "round \(round): \(said.textIfAny)")
            #expect(said.textIfAny.contains(waiting), "round \(round): \(said.textIfAny)")
            #expect(try await Self.outcome(store, in: folder) == runThenChange, "round \(round)")
        }
    }

    @Test func theTerminalUIsResetWhileAnotherProcessRunsSaysSoAndChangesNothing() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("state.json")
        try FileMigrationStore(url: store).update { $0.lastMigratedVersion = "0.2" }
        let manifest = folder.appendingPathComponent("manifest.json").path
        var session = await Session.opened(explorer: try Explorer(app: ExplorerApp(manifestAt: manifest), options: ExplorerOptions(store: .jsonFile(store.path))))
        let size = Size(width: 80, height: 24)
        // Another process's run: a shared hold of the store's run lock (a `flock` of another
        // open file excludes this process as any other's would).
        let run = open(store.path + ".run.lock", O_RDWR | O_CREAT, 0o644)
        defer { close(run) }
        try #require(run >= 0 && flock(run, LOCK_SH) == 0)
        await session.press(.reset, size: size)
        await session.handle(.character("y"), size: size)
        #expect(session.state.message?.text == "Not reset: a run on \(store.path) is going on; try again once it has finished")
        #expect(try FileMigrationStore(url: store).load().lastMigratedVersion == "0.2")
        flock(run, LOCK_UN)
        await session.press(.reset, size: size)
        await session.handle(.character("y"), size: size)
        #expect(session.state.message?.text.hasPrefix("Reset:") == true, "\(session.state.message?.text ?? "")")
        #expect(try FileMigrationStore(url: store).load().lastMigratedVersion == nil)
    }
}
