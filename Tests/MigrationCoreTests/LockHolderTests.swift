import Foundation
import MigrationTestSupport
import Testing
@testable import MigrationCore

@Suite("Lock holder", .onThreadOfItsOwn)
struct LockHolderTests {
    static let locks = """
        1: FLOCK  ADVISORY  WRITE 4242 fe:00:16220847 0 EOF
        1: -> FLOCK  ADVISORY  WRITE 5151 fe:00:16220847 0 EOF
        2: POSIX  ADVISORY  WRITE 777 fe:00:99 0 EOF
        3: FLOCK  ADVISORY  READ 888 08:01:99 0 EOF
        """

    @Test func theHolderOfAFlockIsFoundByDeviceAndInodeNotAWaiter() {
        let device: UInt64 = 0xfe00
        #expect(LockHolder.holderPID(inLocks: Self.locks, device: device, inode: 16_220_847, excluding: 1) == 4242)
        #expect(LockHolder.holderPID(inLocks: Self.locks, device: device, inode: 16_220_847, excluding: 4242) == nil)
        #expect(LockHolder.holderPID(inLocks: Self.locks, device: 0x0801, inode: 99, excluding: 1) == 888)
        #expect(LockHolder.holderPID(inLocks: Self.locks, device: device, inode: 99, excluding: 1) == nil)
    }

    #if os(Linux)
    @Test func anotherProcessHoldingAFileIsNamedWithItsCommand() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("holder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let lock = folder.appendingPathComponent("state.json.lock")
        let holder = SpawnedProcess()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [lock.path, "sh", "-c", "touch \(folder.path)/held; read line"]
        holder.standardInput = Pipe()
        let beforeTheHolder = Date()
        try holder.run()
        defer { holder.terminate(); holder.waitUntilExit() }
        try await #require(waitUntil { FileManager.default.fileExists(atPath: folder.appendingPathComponent("held").path) },
                     "flock never took the lock")
        let found = try #require(LockHolder.of(lockFile: lock.path))
        #expect(found.pid == holder.processIdentifier)
        #expect(found.command == "flock " + lock.path)
        // Since when: the holder's start, between the test starting it and now, to the second
        // of the boot time the system gives.
        let since = try #require(found.since)
        #expect(since >= beforeTheHolder.addingTimeInterval(-2) && since <= Date().addingTimeInterval(2),
                "since \(since), the holder started at \(beforeTheHolder)")
    }

    /// A run killed with SIGKILL while its command holds the lock through an inherited
    /// descriptor: `/proc/locks` still names the dead run; the command is named instead.
    @Test func aLockTakenByAProcessThatIsGoneIsNamedAfterTheProcessStillHoldingIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("holder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let lock = folder.appendingPathComponent("state.json.lock")
        // The parent takes the lock, starts a child that inherits it and waits on its stdin,
        // prints the child's pid and exits: the lock outlives the process that took it.
        let script = """
            import fcntl, os, sys
            f = open(sys.argv[1], "w"); fcntl.flock(f, fcntl.LOCK_EX)
            child = os.fork()
            if child == 0:
                os.close(1); sys.stdin.read(); os._exit(0)
            print(child, flush=True); os._exit(0)
            """
        let parent = SpawnedProcess()
        parent.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        parent.arguments = ["-c", script, lock.path]
        let (output, input) = (Pipe(), Pipe())
        parent.standardOutput = output
        parent.standardInput = input
        try parent.run()
        defer { try? input.fileHandleForWriting.close() }
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        parent.waitUntilExit()
        let child = try #require(Int32(printed.trimmingCharacters(in: .whitespacesAndNewlines)), "no child pid: \(printed)")
        defer { kill(child, SIGKILL) }
        let locks = try #require(LockHolder.readWhole("/proc/locks"))
        var info = stat()
        try #require(stat(lock.path, &info) == 0)
        #expect(LockHolder.holderPID(inLocks: locks, device: UInt64(info.st_dev), inode: UInt64(info.st_ino), excluding: getpid()) == parent.processIdentifier,
                "the system names the process that took the lock")
        let found = try #require(LockHolder.of(lockFile: lock.path))
        #expect(found.pid == child, "named \(found), the lock is held by \(child)")
    }
    #endif
}
