import Foundation
import MigrationTestSupport
import MigrationCore
import Testing

/// Standard output or error that cannot be written (a reader that stopped early, a full disk)
/// never stops a run between a command and its record: the run goes on, records every step,
/// and the program exits with 74 when its output was lost.
@Suite("Output that cannot be written", .onThreadOfItsOwn)
struct BrokenOutputTests {
    /// A manifest in `folder` whose 0.1 prints a line at once and 0.2, once the file `go` is in
    /// `folder` (ten seconds at most), prints another and leaves a marker file.
    func manifest(in folder: URL) throws -> URL {
        let manifest = folder.appendingPathComponent("m.json")
        try manifest.write("""
            { "appVersion": "1.0", "migrations": [
              { "version": "0.1", "title": "First", "run": "echo first" },
              { "version": "0.2", "title": "Second", "run": "for i in $(seq 1000); do [ -e go ] && break; sleep 0.01; done; echo second; echo done > marker" } ] }
            """)
        return manifest
    }

    func recorded(_ store: URL) throws -> String? { try FileMigrationStore(url: store).load().lastMigratedVersion }

    @Test func aReaderThatStopsEarlyDoesNotStopTheRunBeforeItsRecords() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("s.json")
        // `| head -1` in a shell of its own, whose reader lets the pipe go before it lets 0.2
        // print. (A pipe made in this process could be inherited by a process another test
        // starts meanwhile, which would keep the output writable.)
        let pipeline = #"{ "$0" run --manifest "$1" --store "$2" 2> stderr; echo $? > status; } | { head -1 > first; exec <&-; touch go; }"#
        let shell = SpawnedProcess()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", pipeline, Executable.url.path, try manifest(in: folder).path, store.path]
        shell.currentDirectoryURL = folder
        shell.standardInput = FileHandle.nullDevice
        try shell.run()
        shell.waitUntilExit()
        let stderr = folder.appendingPathComponent("stderr").textIfAny
        #expect(folder.appendingPathComponent("first").textIfAny.hasSuffix("first\n"))
        #expect(folder.appendingPathComponent("status").textIfAny == "74\n", "not 74: \(128 + SIGPIPE) if killed by SIGPIPE; \(stderr)")
        #expect(stderr.contains("could not write its output"), "\(stderr)")
        #expect(folder.appendingPathComponent("marker").textIfAny == "done\n")
        #expect(try recorded(store) == "0.2", "the step that ran is recorded")
    }

    @Test(arguments: [["--json"], []])
    func aFullDiskForStandardOutputLosesTheReportNotTheRecords(format: [String]) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("s.json")
        try folder.appendingPathComponent("go").write("")
        let process = SpawnedProcess()
        process.executableURL = Executable.url
        process.arguments = ["run", "--manifest", try manifest(in: folder).path, "--store", store.path] + format
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "\(message)")
        #expect(process.terminationStatus == 74, "the report was lost: \(message)")
        #expect(try recorded(store) == "0.2")
    }

    @Test func aFullDiskForStandardErrorKeepsTheRunsOwnStatus() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.json")
        try manifest.write(#"{ "appVersion": "1.0", "migrations": [ { "version": "0.1", "title": "Fails", "run": "exit 3" } ] }"#)
        let process = SpawnedProcess()
        process.executableURL = Executable.url
        process.arguments = ["run", "--manifest", manifest.path, "--store", folder.appendingPathComponent("s.json").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 1, "the migration failed; only its message was lost")
    }
}
