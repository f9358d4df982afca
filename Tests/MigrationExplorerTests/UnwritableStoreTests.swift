import Foundation
import Testing

/// A real store the user cannot write (another user's folder, a read-only file), through the
/// built binary run as a user who may not write it: every command says so before anything
/// runs or is written, and leaves nothing behind.
@Suite("Stores that cannot be written", .serialized)
struct UnwritableStoreTests {
    enum Kind: String, CaseIterable, Sendable {
        case json, plist, sqlite

        var option: String { ["--store", "--defaults-plist", "--sqlite"][Self.allCases.firstIndex(of: self)!] }
        var file: String { ["state.json", "prefs.plist", "app.sqlite"][Self.allCases.firstIndex(of: self)!] }
    }

    enum Scenario: String, CaseIterable, Sendable {
        /// The store in a folder of another user's: no file of it may be written or created.
        case anotherUsersFolder
        /// The user's own folder, the store's files read-only (their folder would let them be replaced).
        case readOnlyFile
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let kind: Kind
        let scenario: Scenario
        var testDescription: String { "\(kind.rawValue), \(scenario.rawValue)" }
    }

    static let cases = Kind.allCases.flatMap { kind in Scenario.allCases.map { Case(kind: kind, scenario: $0) } }

    /// A folder holding `m.json` (versions 1 and 2, each command touching its marker in
    /// `marks/`) and `store/`, whose store recorded version 1 and which the other user cannot
    /// write. ``remove()`` it when done.
    struct Setup {
        let folder: URL
        let kind: Kind
        var storeFolder: URL { folder.appendingPathComponent("store") }
        /// The store's path as the commands are given it.
        var path: String { "store/\(kind.file)" }
        var storeArguments: [String] { [kind.option, path] }

        init(_ testCase: Case) async throws {
            folder = try makeTemporaryFolder()
            kind = testCase.kind
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
            let marks = folder.appendingPathComponent("marks")
            try FileManager.default.createDirectory(at: marks, withIntermediateDirectories: false)
            try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: marks.path)
            let migrations = ["1", "2"].map { ["version": $0, "title": "step \($0)", "run": "touch '\(marks.path)/\($0)'"] }
            let manifest: [String: Any] = ["app": "Unwritable", "appVersion": "2", "migrations": migrations]
            try JSONSerialization.data(withJSONObject: manifest).write(to: folder.appendingPathComponent("m.json"))
            try FileManager.default.createDirectory(at: storeFolder, withIntermediateDirectories: false)
            let recorded = try await Executable.run(["run", "--manifest", "m.json", "--to", "1"] + storeArguments, in: folder)
            guard recorded.status == 0 else { throw SetupError(description: "recording version 1: \(recorded.stderr)") }
            try FileManager.default.removeItem(at: marker("1"))
            // Without a lock file, whatever a command leaves behind shows.
            for name in try FileManager.default.contentsOfDirectory(atPath: storeFolder.path) where name.hasSuffix(".lock") {
                try FileManager.default.removeItem(at: storeFolder.appendingPathComponent(name))
            }
            switch testCase.scenario {
            case .anotherUsersFolder:
                try OtherUser.refuseWrites(in: storeFolder)
            case .readOnlyFile:
                try OtherUser.own(storeFolder, mode: 0o755)
                for name in try FileManager.default.contentsOfDirectory(atPath: storeFolder.path) {
                    try OtherUser.own(storeFolder.appendingPathComponent(name), mode: 0o444)
                }
            }
        }

        /// Removes the folder, its store's folder made writable first (not as root, it is not).
        func remove() {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: storeFolder.path)
            try? FileManager.default.removeItem(at: folder)
        }

        func marker(_ version: String) -> URL { folder.appendingPathComponent("marks/\(version)") }

        /// Every file of the store's folder, by name, with its bytes.
        func snapshot() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: storeFolder.path) {
                files[name] = try Data(contentsOf: storeFolder.appendingPathComponent(name))
            }
            return files
        }

        /// Runs `arguments` (and the store's) as the user who cannot write the store.
        func run(_ arguments: [String]) async throws -> Executable.Result {
            try await OtherUser.run(arguments + storeArguments, in: folder)
        }
    }

    struct SetupError: Error, CustomStringConvertible { let description: String }

    /// Whether `message` names the store and says why it cannot be written.
    private func namesPathAndReason(_ message: String, _ setup: Setup) -> Bool {
        message.contains(setup.path) && message.contains("cannot be written") && message.contains("permission denied")
    }

    @Test("a run exits 65 (store) before any step", arguments: cases)
    func aRunOnAStoreThatCannotBeWrittenExits65BeforeAnyStep(_ testCase: Case) async throws {
        let setup = try await Setup(testCase)
        defer { setup.remove() }
        let before = try setup.snapshot()
        let text = try await setup.run(["run", "--manifest", "m.json"])
        #expect(text.status == 65, "\(text.stdout)\(text.stderr)")
        #expect(namesPathAndReason(text.stderr, setup), "\(text.stderr)")
        let json = try await setup.run(["run", "--manifest", "m.json", "--json"])
        #expect(json.status == 65)
        let error = try #require(try json.json()["error"] as? [String: Any], "\(json.stdout)")
        #expect(error["kind"] as? String == "store")
        #expect(error["path"] as? String == setup.path)
        #expect(namesPathAndReason(error["message"] as? String ?? "", setup), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: setup.marker("2").path), "the step's command ran")
        #expect(try setup.snapshot() == before, "the store's folder changed (a lock file left behind?)")
    }

    @Test func theFirstCommandDoesNotRunOnAReadOnlySQLiteDatabaseThatHoldsRecords() async throws {
        let setup = try await Setup(Case(kind: .sqlite, scenario: .readOnlyFile))
        defer { setup.remove() }
        let result = try await setup.run(["run", "--manifest", "m.json"])
        #expect(!FileManager.default.fileExists(atPath: setup.marker("2").path), "the command ran: \(result.stdout)")
        #expect(result.status == 65, "\(result.stderr)")
        #expect(!result.stderr.contains("did not run"), "\(result.stderr)")
    }

    @Test("reset and set exit 65 (store), naming the path and the reason", arguments: cases)
    func resetAndSetOnAStoreThatCannotBeWrittenExit65NamingThePathAndTheReason(_ testCase: Case) async throws {
        let setup = try await Setup(testCase)
        defer { setup.remove() }
        let before = try setup.snapshot()
        for command in [["reset"], ["set", "--manifest", "m.json", "--version", "2"]] {
            let text = try await setup.run(command)
            #expect(text.status == 65, "\(command[0]): \(text.stdout)\(text.stderr)")
            #expect(namesPathAndReason(text.stderr, setup), "\(command[0]): \(text.stderr)")
            let json = try await setup.run(command + ["--json"])
            #expect(json.status == 65)
            let error = try #require(try json.json()["error"] as? [String: Any], "\(json.stdout)")
            #expect(error["kind"] as? String == "store")
            #expect(error["path"] as? String == setup.path)
        }
        #expect(try setup.snapshot() == before, "the store's folder changed")
    }

    @Test("plan and a dry-run say up front that the store cannot be written", arguments: cases)
    func planAndADryRunSayUpFrontThatTheStoreCannotBeWritten(_ testCase: Case) async throws {
        let setup = try await Setup(testCase)
        defer { setup.remove() }
        for command in [["plan"], ["run", "--dry-run"]] {
            let text = try await setup.run(command + ["--manifest", "m.json"])
            #expect(text.status == 0, "\(command): \(text.stderr)")
            let lines = text.stdout.split(separator: "\n")
            // Up front: the line right after the header.
            #expect(lines.count > 1 && lines[1].hasPrefix("warning: the store cannot be written (permission denied"), "\(command): \(text.stdout)")
            #expect(text.stdout.contains(command == ["plan"] ? "pending" : "would-run"), "\(command): the plan is not shown")
            let json = try await setup.run(command + ["--manifest", "m.json", "--json"])
            #expect(json.status == 0)
            let notice = try #require(try json.json()["unwritableStore"] as? [String: Any], "\(command): \(json.stdout)")
            #expect((notice["path"] as? String)?.hasSuffix(setup.path) == true)
            #expect((notice["reason"] as? String)?.contains("permission denied") == true, "\(notice)")
        }
        #expect(!FileManager.default.fileExists(atPath: setup.marker("2").path))
    }

    /// A store that does not exist yet, in a folder the user cannot write: the plan of a fresh
    /// install, with the notice, and nothing created (SQLite used to fail to open it).
    @Test(arguments: Kind.allCases)
    func planOnANewStoreInAFolderThatCannotBeWrittenShowsAFreshInstall(_ kind: Kind) async throws {
        let setup = try await Setup(Case(kind: kind, scenario: .anotherUsersFolder))
        defer { setup.remove() }
        let before = try setup.snapshot()
        let plan = try await OtherUser.run(["plan", "--manifest", "m.json", kind.option, "store/new-\(kind.file)"], in: setup.folder)
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(plan.stdout.contains("fresh install") && plan.stdout.contains("warning: the store cannot be written"), "\(plan.stdout)")
        #expect(try setup.snapshot() == before)
    }

    @Test func aStoreThatCanBeWrittenHasNoNotice() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for command in [["plan"], ["run", "--dry-run"]] {
            let json = try await Executable.run(command + ["--store", "state.json", "--json"], in: folder)
            #expect(json.status == 0)
            #expect(try json.json()["unwritableStore"] is NSNull, "\(command): \(json.stdout)")
            let text = try await Executable.run(command + ["--store", "state.json"], in: folder)
            #expect(!text.stdout.contains("cannot be written"))
        }
    }

    @Test func theTerminalUIOffersNoRunOrResetOnAStoreThatCannotBeWrittenAndLeavesNoLock() async throws {
        let setup = try await Setup(Case(kind: .json, scenario: .readOnlyFile))
        defer { setup.remove() }
        let before = try setup.snapshot()
        let store = setup.storeFolder.appendingPathComponent(setup.kind.file).path
        let (binary, arguments) = OtherUser.command(["--manifest", setup.folder.appendingPathComponent("m.json").path, "--store", store])
        let tmux = try await Tmux(arguments, width: 120, height: 24, binary: binary)
        let opened = try await tmux.waitFor("Unwritable 1 → 2", "? help")
        #expect(opened.contains("READ-ONLY STORE") && opened.contains("run and reset are off"), "no notice:\n\(opened)")
        #expect(!opened.contains("r run") && !opened.contains("x reset"), "the footer offers them:\n\(opened)")
        // Nothing asks, so a "y" after the key starts nothing either.
        try await tmux.send("r")
        try await tmux.waitFor("No run:", "cannot be written (permission")
        try await tmux.send("y", "x")
        try await tmux.waitFor("No reset:")
        try await tmux.send("y")
        try await tmux.send("d")
        try await tmux.waitFor("Dry run")
        try await tmux.send("Escape", "q")
        #expect(try await tmux.exitStatus() == 0)
        #expect(!FileManager.default.fileExists(atPath: setup.marker("2").path))
        #expect(try setup.snapshot() == before, "the store's folder changed (a lock file left behind?)")
    }
}
