import Foundation
import MigrationTestSupport
import Testing

/// The tests' throwaway PostgreSQL server lives no longer than the process that started it, even
/// one killed with SIGKILL (as a crashed test process is gone before any exit handler runs).
@Suite("Throwaway PostgreSQL server")
struct ThrowawayServerTests {
    static let holder = Executable.url.deletingLastPathComponent().appendingPathComponent("throwaway-postgres-holder")

    @Test func aThrowawayServerAndItsFolderGoWhenTheProcessThatStartedItIsKilled() async throws {
        // A temporary folder of its own: the server's folder is the one thing the holder makes
        // there. A short name: the server's socket lies inside, and a socket's path has at most
        // 107 bytes.
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let holder = SpawnedProcess()
        holder.executableURL = Self.holder
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary.path
        environment["MIGRATION_POSTGRES_URL"] = nil
        holder.environment = environment
        let printed = temporary.appendingPathComponent("holder.out")
        try printed.write("")
        let output = try FileHandle(forWritingTo: printed)
        defer { try? output.close() }
        holder.standardOutput = output
        holder.standardInput = FileHandle.nullDevice
        try holder.run()
        defer { kill(holder.processIdentifier, SIGKILL); holder.waitUntilExit() }

        // initdb and the start take seconds, more on a busy machine.
        #expect(await waitUntil(timeout: 120) { printed.textIfAny.hasSuffix("\n") || !holder.isRunning })
        try #require(Int(printed.textIfAny.trimmingCharacters(in: .whitespacesAndNewlines)) != nil, "the holder printed no port: \(printed.textIfAny)")
        let folders = try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter { $0.hasPrefix("throwaway-postgres-") }
        let folder = temporary.appendingPathComponent(try #require(folders.first, "no server folder in \(temporary.path)"))
        let serverPID = try #require(pid_t(folder.appendingPathComponent("data/postmaster.pid").read().prefix { $0 != "\n" }))
        #expect(isAlive(serverPID))

        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        #expect(holder.terminationReason == .uncaughtSignal && holder.terminationStatus == SIGKILL)
        #expect(await waitUntil { !isAlive(serverPID) }, "the server \(serverPID) outlived the process that started it")
        #expect(await waitUntil { !FileManager.default.fileExists(atPath: folder.path) }, "\(folder.path) is left behind")
    }
}
