import Foundation
import MigrationTestSupport
import Testing

/// The tests' own way to start a process: it must tell how the process ended, and give it no
/// descriptor of ours but its standard streams.
@Suite("Processes the tests start", .onThreadOfItsOwn)
struct SpawnedProcessTests {
    func shell(_ script: String) -> SpawnedProcess {
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        return process
    }

    @Test func itsOutputStatusAndWorkingFolderComeBack() throws {
        let process = shell("pwd; echo oops >&2; exit 3")
        process.currentDirectoryURL = URL(fileURLWithPath: "/tmp")
        let output = Pipe(), errors = Pipe()
        (process.standardOutput, process.standardError) = (output, errors)
        try process.run()
        #expect(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "/tmp\n")
        #expect(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "oops\n")
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 3)
    }

    @Test func aSignalThatEndsItIsReportedAsFoundationDoes() throws {
        let process = shell("kill -9 $$")
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        #expect(!process.isRunning)
    }

    @Test func aChildKeepsNoOtherPipeOfOursOpen() throws {
        let unrelated = Pipe()
        let child = shell("sleep 30")
        try child.run()
        defer { child.terminate(); child.waitUntilExit() }
        try unrelated.fileHandleForWriting.close()
        // Were the writing end inherited, this would wait for the child's 30 seconds (the bound
        // of a failure, not a measure of speed: the read alone comes back in far less).
        #expect(unrelated.fileHandleForReading.readDataToEndOfFile().isEmpty)
        #expect(child.isRunning, "the read waited for the child to end: it kept our pipe's writing end open")
    }

    @Test func theNullDeviceIsEmptyInputAndSwallowsOutput() throws {
        let process = shell("cat; echo gone")
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        #expect(errors.fileHandleForReading.readDataToEndOfFile().isEmpty)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func itsInputComesFromAPipe() throws {
        let process = shell("read line; echo \"got $line\"")
        let input = Pipe(), output = Pipe()
        (process.standardInput, process.standardOutput) = (input, output)
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data("hi\n".utf8))
        try input.fileHandleForWriting.close()
        #expect(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "got hi\n")
        process.waitUntilExit()
    }
}
