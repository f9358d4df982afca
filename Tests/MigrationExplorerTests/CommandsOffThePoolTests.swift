import Foundation
import MigrationCore
import MigrationTestSupport
import Testing
@testable import MigrationExplorer

/// What a manifest's command needs of the concurrency pool, which other work of the process
/// (other runs, an app's bodies, other tests) may keep busy: the command's work starts on a
/// thread of its own, and its timeout and grace before SIGKILL fire on time without the pool.
/// (swift-subprocess itself needs a thread of the pool to finish a command: its cancellation
/// handler runs in a `Task { }`.)
@Suite("Manifest commands off the concurrency pool", .onThreadOfItsOwn, .serialized)
struct CommandsOffThePoolTests {
    @Test func aCommandsWorkStartsWhileEveryThreadOfThePoolIsBusy() throws {
        let pool = try #require(BusyConcurrencyPool.occupy(holdAtMost: 30), "the pool's threads did not all come free within 60 s")
        defer { pool.release() }
        let startedWhileBusy = try blocking { pool.isHoldingEveryThread }
        #expect(startedWhileBusy, "the work waited for a thread of the pool")
    }

    @Test func aCommandsTimeoutAndGraceKillItOnTimeWhileEveryThreadOfThePoolIsBusy() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pidFile = folder.appendingPathComponent("pid")
        var settings = CommandSettings.current
        settings.grace = .milliseconds(100)
        // Ignores SIGTERM, so only SIGKILL after the grace ends it; a minute at most, so a failure does not hang.
        let stubborn = ShellCommand(command: "trap '' TERM; echo $$ > pid; exec sleep 60", folder: folder, identity: nil, timeout: .seconds(2))
        let outcome = Locked<Result<Void, any Error>?>(nil)
        try DetachedThread.start(name: "a stubborn command") { [settings] in
            let result = Result { try CommandSettings.$current.withValue(settings) { try stubborn.run(MigrationContext(from: "0.9", to: "1.0")) } }
            outcome.withLock { $0 = result }
        }
        // The command is spawned with the pool free; then every thread of the pool is taken
        // before its 2 s timeout comes.
        #expect(blockingWaitUntil { pid_t(pidFile.textIfAny.trimmingCharacters(in: .whitespacesAndNewlines)) != nil })
        let pid = try #require(pid_t(pidFile.textIfAny.trimmingCharacters(in: .whitespacesAndNewlines)))
        let pool = try #require(BusyConcurrencyPool.occupy(holdAtMost: 30), "the pool's threads did not all come free within 60 s")
        let killedWhileBusy = blockingWaitUntil(timeout: 10) { !isAlive(pid) } && pool.isHoldingEveryThread
        pool.release()
        #expect(killedWhileBusy, "the timeout or the grace did not fire while the pool was busy")
        #expect(blockingWaitUntil { outcome.value != nil })
        #expect(throws: ShellCommand.Failure.self) { try outcome.value?.get() }
        if isAlive(pid) { kill(pid, SIGKILL) }
    }
}
