import Foundation
import MigrationTestSupport
import Testing
@testable import MigrationExplorer

/// `run` shows how it goes while it goes: a live line on a terminal, plain lines on a pipe,
/// and the process it waits for when another holds the store, for as long as `--wait` says.
@Suite("Run live line")
struct RunLiveLineTests {
    /// A folder with a manifest whose first migration prints, says it started, and then waits
    /// for a `go` file; and the store's path.
    struct Setup {
        let folder: URL
        var manifest: String { folder.appendingPathComponent("manifest.json").path }
        var store: String { folder.appendingPathComponent("state.json").path }
        var started: URL { folder.appendingPathComponent("started") }

        init() throws {
            folder = try makeTemporaryFolder()
            let first = "echo importing; touch \(folder.path)/started; while [ ! -e \(folder.path)/go ]; do sleep 0.05; done; echo imported"
            try folder.appendingPathComponent("manifest.json").write("""
                { "appVersion": "1.0", "migrations": [
                  { "version": "0.1", "title": "Import notes", "run": "\(first)" },
                  { "version": "0.2", "title": "Index notes", "run": "echo indexed" } ] }
                """)
        }

        func go() throws { try folder.appendingPathComponent("go").write("") }
        func run(_ extra: [String] = []) -> [String] { ["run", "--manifest", manifest, "--store", store] + extra }
    }

    /// The seconds the live line of 0.1 shows (`[1/2] 3s 0.1 Import notes │ importing`, or
    /// `1m04s` from a minute on, which a busy machine can reach before the line is first
    /// seen), when the screen shows it.
    func liveSeconds(_ screen: String) -> Int? {
        guard let shown = screen.firstMatch(of: /\[1\/2\] (?:(\d+)m)?(\d+)s 0\.1 Import notes │ importing/) else { return nil }
        return (shown.1.flatMap { Int($0) } ?? 0) * 60 + (Int(shown.2) ?? 0)
    }

    @Test func onATerminalALiveLineShowsTheStepItsTimeAndItsLastLineThenEachFinishedStep() async throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.folder) }
        let tmux = try await Tmux(setup.run(), width: 100, height: 24)
        let live = try await tmux.waitFor("0.1 Import notes │ importing")
        let first = try #require(liveSeconds(live), "no live line with the step's time:\n\(live)")
        // Nothing is printed meanwhile; the line ticks on its own (from whatever second it was
        // first seen at: a busy machine may show it late).
        #expect(try await tmux.screen { liveSeconds($0).map { $0 > first } == true } != nil, "the live line stays at \(first)s")
        try setup.go()
        let screen = try await tmux.waitFor("✓ [1/2] 0.1 Import notes: succeeded in", "✓ [2/2] 0.2 Index notes: succeeded in", "Run: ")
        #expect(try await tmux.exitStatus() == 0)
        #expect(!screen.contains("0.2 Index notes │"), "the live line is left behind:\n\(screen)")
    }

    @Test func onAPipeThereAreNoEscapeSequencesOnlyALineAsEachStepFinishes() async throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.folder) }
        try setup.go()
        for json in [false, true] {
            try? FileManager.default.removeItem(atPath: setup.store)
            let result = try await Executable.run(setup.run(json ? ["--json"] : []))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("✓ [1/2] 0.1 Import notes: succeeded in "), "\(result.stderr)")
            #expect(result.stderr.contains("✓ [2/2] 0.2 Index notes: succeeded in "), "\(result.stderr)")
            for text in [result.stdout, result.stderr] {
                #expect(!text.contains("\u{1B}") && !text.contains("\r"), "\(text.debugDescription)")
            }
        }
    }

    @Test func aRunGivesUpOnAStoreAnotherRunHoldsAtOnceOrAfterWaitSecondsAndOtherwiseWaitsNamingTheHolder() async throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.folder) }
        // Something recorded, so that a reset has something to wait for.
        #expect(try await Executable.run(setup.run(["--to", "0.0.1"])).status == 0)
        let holder = try await Executable.start(setup.run())
        let pid = holder.pid
        #expect(await waitUntil { FileManager.default.fileExists(atPath: setup.started.path) }, "the first run never started its step")
        let heldBy = "held by pid \(pid) (`migration-explorer run`, since "

        let noWait = try await Executable.run(setup.run(["--no-wait"]))
        #expect(noWait.status == 75, "\(noWait.stdout)\(noWait.stderr)")
        #expect(noWait.stderr.contains(heldBy) && noWait.stderr.contains("did not wait"), "\(noWait.stderr)")
        let bounded = try await Executable.run(setup.run(["--wait", "0.3"]))
        #expect(bounded.status == 75, "\(bounded.stdout)\(bounded.stderr)")
        #expect(bounded.stderr.contains(heldBy) && bounded.stderr.contains("gave up waiting after 0.3 s"), "\(bounded.stderr)")
        #expect(!bounded.stderr.contains("MigrationStoreError") && !bounded.stderr.contains("Optional("), "\(bounded.stderr)")
        let reset = try await Executable.run(["reset", "--store", setup.store, "--no-wait"])
        #expect(reset.status == 75, "\(reset.stdout)\(reset.stderr)")
        #expect(reset.stderr.contains("held by pid \(pid)"), "\(reset.stderr)")

        let patient = try await Executable.start(setup.run())
        #expect(await waitUntil { someoneWaitsForTheLock(on: URL(fileURLWithPath: setup.store + ".lock")) == true }, "the second run does not wait")
        try setup.go()
        let first = await holder.finish(), second = await patient.finish()
        #expect(first.status == 0, "\(first.stderr)")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("waiting for \(setup.store), \(heldBy)"), "\(second.stderr)")
        #expect(!second.stdout.contains("importing"), "the second run ran the first's migration again:\n\(second.stdout)")
    }

    @Test func onATerminalTheWaitNamesTheStoreAndItsHolder() async throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.folder) }
        let holder = try await Executable.start(setup.run())
        defer { try? setup.go() }
        #expect(await waitUntil { FileManager.default.fileExists(atPath: setup.started.path) }, "the first run never started its step")
        let tmux = try await Tmux(setup.run(), width: 200, height: 10)
        try await tmux.waitFor("waiting for \(setup.store), held by pid \(holder.pid) (`migration-explorer run`, since ")
        try setup.go()
        try await tmux.waitFor("Run: ")
        #expect(try await tmux.exitStatus() == 0)
    }
}
