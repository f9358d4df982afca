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
    #endif
}
