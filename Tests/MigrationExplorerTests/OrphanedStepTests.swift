import Foundation
import MigrationTestSupport
import Testing
#if PostgreSQL
import ThrowawayPostgresServer
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A manifest command whose runner is killed with SIGKILL lives on (its process group is its
/// own): the next run, on every store, waits for it and only then runs the step again, so a
/// step never runs twice at once.
@Suite("An orphaned step never overlaps its re-run", .serialized)
struct OrphanedStepTests {
    /// A store the runs write, as the command line names it.
    struct StoreKind: CustomTestStringConvertible, Sendable {
        let name: String
        let arguments: @Sendable (URL) throws -> [String]
        var testDescription: String { name }
    }

    static var kinds: [StoreKind] {
        var kinds = [
            StoreKind(name: "JSON file") { ["--store", $0.appendingPathComponent("state.json").path] },
            StoreKind(name: "preferences plist") { ["--defaults-plist", $0.appendingPathComponent("prefs.plist").path] },
        ]
        #if SQLite
        kinds.append(StoreKind(name: "SQLite") { ["--sqlite", $0.appendingPathComponent("app.sqlite").path] })
        #endif
        #if PostgreSQL
        kinds.append(StoreKind(name: "PostgreSQL") { _ in ["--postgres", try ThrowawayPostgres.shared().createDatabase()] })
        #endif
        return kinds
    }

    /// 0.1 logs OVERLAP when the previous copy of any step is still alive, tells the test on
    /// the FIFO `ready` that it started, and, while the FIFO `go` is there, waits for the test's
    /// word on it: the orphan lives exactly as long as the test lets it.
    static func manifest(in folder: URL) throws -> URL {
        let guarded = "for f in pid.*; do [ -f \\\"$f\\\" ] && kill -0 $(cat \\\"$f\\\") 2>/dev/null && echo OVERLAP >> log; done; "
            + "echo $$ > pid.0.1; echo start 0.1 >> log; [ -p ready ] && echo started > ready; [ -p go ] && read word < go; "
            + "echo end 0.1 >> log; rm -f pid.0.1"
        let url = folder.appendingPathComponent("manifest.json")
        try url.write("""
            { "appVersion": "1.0", "migrations": [
              { "version": "0.1", "title": "Slow", "run": "\(guarded)" },
              { "version": "0.2", "title": "Next", "run": "echo ran 0.2 >> log" } ] }
            """)
        return url
    }

    @Test(arguments: kinds)
    func aRestartAfterTheRunnerIsKilledWaitsForTheOrphanedCommand(_ kind: StoreKind) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try Self.manifest(in: folder)
        let store = try kind.arguments(folder)
        let (ready, go) = (folder.appendingPathComponent("ready"), folder.appendingPathComponent("go"))
        let log = folder.appendingPathComponent("log")
        #expect(mkfifo(ready.path, 0o600) == 0 && mkfifo(go.path, 0o600) == 0)
        let first = try await Executable.start(["run", "--manifest", manifest.path] + store, in: folder)
        #expect(try awaitLine(onFIFO: ready, within: 60) == "started", "the first run's command never started")
        try FileManager.default.removeItem(at: ready)
        kill(first.pid, SIGKILL)
        _ = await first.finish()

        // The orphan waits on `go`: the restart either says it waits for the store, or starts
        // the step beside it.
        let restart = try await WatchingCommand(["run", "--manifest", manifest.path] + store, in: folder)
        #expect(await waitUntil(timeout: 120) {
            restart.stderr.contains("waiting for") || log.textIfAny.components(separatedBy: "start 0.1").count > 2
        }, "the restart neither waited nor started: \(restart.stderr)")
        #expect(restart.stderr.contains("waiting for"), "\(restart.stderr)")
        try release(go)
        #expect(await waitUntil(timeout: 120) { !restart.isRunning }, "the restart did not end once the orphan did")
        let text = log.textIfAny
        #expect(!text.contains("OVERLAP"), "the re-run started while the orphan ran:\n\(text)")
        #expect(text.components(separatedBy: "end 0.1").count == 3, "\(text)")
        #expect(text.hasSuffix("ran 0.2\n"), "\(text)")
    }

    /// Lets the orphan end: one line on `go`, which it waits to read; then no copy waits again.
    func release(_ go: URL) throws {
        let descriptor = open(go.path, O_WRONLY | O_CLOEXEC)
        #expect(descriptor >= 0)
        _ = write(descriptor, "go\n", 3)
        close(descriptor)
        try FileManager.default.removeItem(at: go)
    }
}
