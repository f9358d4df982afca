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

/// A run in the terminal UI whose store another process holds (an orphaned command of a
/// killed run keeps its lock): the run can be watched and stopped while it waits, and once
/// cancelled it starts nothing when the store frees.
@Suite("Terminal UI: a run waiting for the store", .serialized)
struct TUIWaitingForStoreTests {
    /// The store's lock, held as another process holds it (`flock` belongs to the open file, so
    /// a descriptor of this process excludes the UI's process like any other), until released.
    final class HeldLock: Sendable {
        private let descriptor: Int32

        init(store: URL) throws {
            descriptor = open(store.path + ".lock", O_RDWR | O_CREAT, 0o644)
            #expect(descriptor >= 0 && flock(descriptor, LOCK_EX) == 0)
        }

        /// Releases the lock; again is harmless.
        func release() { flock(descriptor, LOCK_UN) }

        deinit { close(descriptor) }
    }

    /// A folder with a manifest whose migrations log when they start, and its store's path.
    func manifest() throws -> (folder: URL, manifest: URL, store: URL, log: URL) {
        let folder = try makeTemporaryFolder()
        let manifest = folder.appendingPathComponent("m.json")
        try manifest.write("""
            { "appVersion": "1.0", "migrations": [
              { "version": "0.1", "title": "Slow", "run": "echo start 0.1 >> log; sleep 1; echo end 0.1 >> log" },
              { "version": "0.2", "title": "Next", "run": "echo start 0.2 >> log" } ] }
            """)
        return (folder, manifest, folder.appendingPathComponent("s.json"), folder.appendingPathComponent("log"))
    }

    // MARK: The session

    @Test func theRunIsShownBeforeItTakesTheStoreAndOnceCancelledThereItStartsNothing() async throws {
        let (folder, manifest, store, log) = try manifest()
        defer { try? FileManager.default.removeItem(at: folder) }
        var session = await Session.opened(explorer: try Explorer(app: ExplorerApp(manifestAt: manifest.path), options: ExplorerOptions(store: .jsonFile(store.path))))
        let size = Size(width: 80, height: 24)
        await session.press(.runPending, size: size)
        let held = try HeldLock(store: store)
        defer { held.release() }
        #expect(session.handle(.key(.character("y")), size: size) == .run)
        let run = session.startRun(size: size)
        #expect(session.state.prompt == nil && session.state.overlay == nil, "the confirmation is gone as the run starts")
        #expect(session.state.running?.isEmpty == true && session.state.runningStep == nil, "the run shows before any step starts")
        _ = await waitUntil { someoneWaitsForTheLock(on: URL(fileURLWithPath: store.path + ".lock")) ?? true }
        // Esc, as the loop carries it out; then the store frees.
        #expect(session.handle(.key(.escape), size: size) == .cancelRun)
        run.cancel()
        held.release()
        await run.finish()
        for update in run.takeUpdates() { _ = session.handle(.run(update), size: size) }
        // Cancelled while it waits for 0.1's lock, or before it even asked for it: the explorer's
        // runs share one thread, which other tests may hold a while under a full test run.
        let outcomes = try #require(session.state.lastReport?.steps.map(\.outcome))
        #expect(outcomes == [.cancelled] || outcomes.isEmpty, "\(outcomes)")
        #expect(session.state.message?.text.hasPrefix("Run cancelled") == true, "\(session.state.message?.text ?? "")")
        #expect(session.state.message?.text.hasSuffix("; 2 migrations wait for the next run") == true)
        #expect(log.textIfAny.isEmpty, "a command started after the run was cancelled:\n\(log.textIfAny)")
        #expect(try FileMigrationStore(url: store).load().history.isEmpty, "nothing is recorded")
    }

    // MARK: What the screen says

    @Test func aRunThatHasNotStartedAStepSaysItStartsThenThatItWaitsForTheStore() {
        let soon = LiveRunPhase.starting(waited: .milliseconds(200)), later = LiveRunPhase.starting(waited: .seconds(2))
        #expect(soon.message(cancelled: false, isSandbox: false)?.text == "Starting the run…")
        #expect(later.message(cancelled: false, isSandbox: false)?.text == "Waiting for the store: another process holds it…")
        #expect(later.message(cancelled: false, isSandbox: true)?.text == "Starting the run…", "no other process holds a sandbox")
        #expect(later.message(cancelled: true, isSandbox: false)?.text == "Cancelled before anything ran: the run ends once the store is free")
        #expect(LiveRunPhase.running.message(cancelled: false, isSandbox: false) == nil)
        #expect(LiveRunPhase.running.message(cancelled: true, isSandbox: false)?.text == "Cancelling the run…")
    }

    @Test func theFooterNamesWhatACancelledRunWaitsFor() {
        for phase in [LiveRunPhase.starting(waited: .zero), .running] {
            #expect(phase.footer(cancelled: false) == "Ctrl-C or Esc cancels the run")
        }
        #expect(LiveRunPhase.starting(waited: .zero).footer(cancelled: true) == "Ctrl-C again quits at once · cancelled: waiting for the store to be free")
        #expect(LiveRunPhase.running.footer(cancelled: true) == "Ctrl-C again quits at once · cancelling: waiting for the running step to stop")
    }

    @Test func leavingBeforeAnyStepStartedNamesNoCommand() {
        #expect(LiveRunPhase.starting(waited: .seconds(3)).leavingMessage(cause: "Ctrl-C", running: nil) == "stopped by Ctrl-C before anything ran")
        #expect(LiveRunPhase.starting(waited: .zero).leavingMessage(cause: "signal 15", running: nil) == "stopped by signal 15 before anything ran")
        #expect(LiveRunPhase.running.leavingMessage(cause: "Ctrl-C", running: "0.1 `sleep 9`")
            == "gave up waiting for 0.1 `sleep 9` to stop: it is not recorded and runs again next time")
    }

    // MARK: End to end in tmux

    /// Opens the UI on the manifest with the store held, and starts a run, which waits.
    func waitingRun(_ files: (folder: URL, manifest: URL, store: URL, log: URL)) async throws -> (Tmux, HeldLock) {
        let held = try HeldLock(store: files.store)
        let tmux = try await Tmux(["--manifest", files.manifest.path, "--store", files.store.path], width: 80, height: 24)
        try await tmux.waitFor("version 0.1")
        try await tmux.send("r")
        try await tmux.waitFor("Are you sure?")
        try await tmux.send("y")
        let screen = try await tmux.waitFor("Waiting for the store: another process holds it…", "Ctrl-C or Esc cancels the run")
        #expect(!screen.contains("Are you sure?"))
        return (tmux, held)
    }

    @Test func escWhileTheRunWaitsForTheStoreCancelsItAndNothingStartsOnceTheStoreIsFree() async throws {
        let files = try manifest()
        defer { try? FileManager.default.removeItem(at: files.folder) }
        let (tmux, held) = try await waitingRun(files)
        try await tmux.send("Escape")
        try await tmux.waitFor("Cancelled before anything ran", "Ctrl-C again quits at once · cancelled: waiting for the store to be free")
        held.release()
        try await tmux.waitFor("Run cancelled at version 0.1 \"Slow\"; 2 migrations wait for the next run")
        #expect(files.log.textIfAny.isEmpty, "a command started after the run was cancelled:\n\(files.log.textIfAny)")
        try await tmux.send("Escape")
        try await tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
        #expect(files.log.textIfAny.isEmpty)
    }

    @Test("asked twice, or by a signal, while the run waits for the store: it leaves at once and names no command",
          arguments: [("C-c C-c", Int32(130), "Ctrl-C"), ("SIGTERM", Int32(143), "signal 15")])
    func leavingWhileTheRunWaits(how: String, status: Int32, cause: String) async throws {
        let files = try manifest()
        defer { try? FileManager.default.removeItem(at: files.folder) }
        let (tmux, held) = try await waitingRun(files)
        if how == "SIGTERM" {
            try await tmux.signalCommand(SIGTERM)
        } else {
            try await tmux.send("C-c")
            try await tmux.waitFor("Cancelled before anything ran")
            try await tmux.send("C-c")
        }
        #expect(try await tmux.exitStatus() == status)
        let screen = try await tmux.waitFor("stopped by \(cause) before anything ran")
        #expect(!screen.contains("gave up waiting"), "\(screen)")
        // The UI has exited and nothing waits for the store (where that can be seen): once it is
        // free, nothing can start a command.
        #expect(someoneWaitsForTheLock(on: URL(fileURLWithPath: files.store.path + ".lock")) != true, "a process still waits for the store")
        held.release()
        #expect(files.log.textIfAny.isEmpty, "a command started:\n\(files.log.textIfAny)")
    }
}
