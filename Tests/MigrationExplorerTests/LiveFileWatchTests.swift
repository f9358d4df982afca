import Foundation
import MigrationExplorer
import MigrationTestSupport
import Testing

/// A watched file changed by other processes (`mv`, `cp`, `rm`, the built binary's `set`) is
/// reported within a second, once per burst; nothing is reported while nothing changes.
@Suite struct LiveFileWatchTests {
    /// A way another process changes the watched file.
    struct Change: CustomTestStringConvertible, Sendable {
        let testDescription: String
        /// The program and its arguments, run in the folder; `FILE` is the watched file's name.
        let command: [String]
        /// Whether the watched file exists before the change.
        var fileExistsBefore = true
    }

    static let changes = [
        Change(testDescription: "saved by renaming a new file over it", command: ["/bin/mv", "new.json", "FILE"]),
        Change(testDescription: "written in place", command: ["/bin/cp", "new.json", "FILE"]),
        Change(testDescription: "deleted", command: ["/bin/rm", "FILE"]),
        Change(testDescription: "created again after a deletion", command: ["/bin/cp", "new.json", "FILE"], fileExistsBefore: false),
    ]

    @Test(arguments: changes)
    func aChangeByAnotherProcessIsReportedOnce(_ change: Change) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("state.json")
        if change.fileExistsBefore { try Data("{}".utf8).write(to: file) }
        try Data(#"{"changed": true}"#.utf8).write(to: folder.appendingPathComponent("new.json"))
        let marker = folder.appendingPathComponent("marker")
        let recorder = ChangeRecorder(try FileWatch(files: [file, marker]).changes())
        defer { recorder.stop() }

        let command = change.command.map { $0 == "FILE" ? file.lastPathComponent : $0 }
        let result = try await Executable.run(Array(command.dropFirst()), in: folder, binary: URL(fileURLWithPath: command[0]))
        try #require(result.status == 0, "\(result.stderr)")
        #expect(await waitUntil(timeout: 10) { recorder.count > 0 })

        // Once the change is reported, another file is written: the next report is that one,
        // so the change was reported once (a second report of it would come first).
        try Data("marked".utf8).write(to: marker)
        #expect(await waitUntil(timeout: 10) { recorder.events.contains { $0.files == [marker.path] } })
        #expect(recorder.events.map(\.files) == [[file.path], [marker.path]], "one burst, one change: \(recorder.events)")
    }

    @Test(arguments: [("--store", "state.json"), ("--defaults-plist", "com.example.notes.plist")])
    func aSetByTheBuiltBinaryIsReported(option: String, name: String) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        let recorder = ChangeRecorder(try FileWatch(files: [file]).changes())
        defer { recorder.stop() }

        let result = try await Executable.run(["set", "--version", "2.0", option, file.path])
        try #require(result.status == 0, "\(result.stderr)")

        #expect(await waitUntil(timeout: 10) { recorder.events.contains { $0.files == [file.path] } })
    }

    @Test func nothingIsReportedWhileNothingChanges() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("state.json")
        try Data("{}".utf8).write(to: file)
        let marker = folder.appendingPathComponent("marker")
        let recorder = ChangeRecorder(try FileWatch(files: [file, marker]).changes())
        defer { recorder.stop() }

        _ = try Data(contentsOf: file)
        // Then another file is written: the first report is that one, so the read reported nothing.
        try Data("marked".utf8).write(to: marker)
        #expect(await waitUntil(timeout: 10) { recorder.count > 0 })
        #expect(recorder.events.map(\.files) == [[marker.path]], "\(recorder.events)")
    }

    @Test func aFileInAFolderThatDoesNotExistCannotBeWatchedAndSaysWhy() throws {
        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/state.json")
        #expect {
            _ = try FileWatch(files: [missing]).changes()
        } throws: { error in
            (error as? FileWatchError)?.description.contains("cannot follow changes to /nonexistent-") == true
        }
    }
}
