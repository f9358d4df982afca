import Foundation
import Testing

/// Links one user plants beside a store in a folder every user may write (mode 1777, as
/// `/tmp`), while another user runs the built binary on that store: no command writes,
/// truncates, changes the mode of or creates a file of the victim's through the store's
/// temporary or lock names. As root, the links are root's and the commands run as `nobody`.
@Suite("Links planted beside a store, through the command line", .serialized)
struct PlantedLinkCommandTests {
    enum Kind: String, CaseIterable, Sendable {
        case json, plist

        var option: String { self == .json ? "--store" : "--defaults-plist" }
        var file: String { self == .json ? "state.json" : "prefs.plist" }
    }

    /// A command run on a store, after `before` made it, with a link planted at its temporary name.
    struct Case: CustomTestStringConvertible, Sendable {
        let kind: Kind
        let before: [String]?
        let command: [String]
        var testDescription: String { "\(command[0]) \(command.count > 1 ? command[1] + " " : "")on a \(kind.rawValue) store" }
    }

    static let manifest = #"{ "app": "Planted", "appVersion": "1.0", "releases": ["1.0"], "migrations": [ { "version": "1.0", "title": "one", "run": "true" } ] }"#
    static let set = ["set", "--manifest", "m.json", "--version", "1.0"]
    static let cases = Kind.allCases.flatMap { kind in
        [Case(kind: kind, before: nil, command: set),
         Case(kind: kind, before: nil, command: ["run", "--manifest", "m.json"]),
         Case(kind: kind, before: set, command: ["reset", "--force"])]
    }

    /// A folder of mode 1777 holding the manifest and `notes.txt`, a file of the user who runs
    /// the commands, which planted links name.
    struct SharedFolder {
        static let notes = "the victim's own notes\n"
        let url: URL
        var notesFile: URL { url.appendingPathComponent("notes.txt") }

        init() throws {
            url = try makeTemporaryFolder()
            try FileManager.default.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: url.path)
            try url.appendingPathComponent("m.json").write(PlantedLinkCommandTests.manifest)
            try notesFile.write(Self.notes)
            try OtherUser.own(notesFile, mode: 0o640)
        }

        func file(_ name: String) -> URL { url.appendingPathComponent(name) }

        /// Plants a symbolic link named `name` to `target`, as the tests' user.
        func plant(_ name: String, to target: URL) throws {
            try FileManager.default.createSymbolicLink(atPath: file(name).path, withDestinationPath: target.path)
        }

        /// Runs the binary as the victim.
        func run(_ arguments: [String]) async throws -> Executable.Result {
            try await OtherUser.run(arguments, in: url)
        }

        var notes: (text: String, mode: Int?) {
            (notesFile.textIfAny, try? FileManager.default.attributesOfItem(atPath: notesFile.path)[.posixPermissions] as? Int)
        }

        func type(_ name: String) -> FileAttributeType? {
            try? FileManager.default.attributesOfItem(atPath: file(name).path)[.type] as? FileAttributeType
        }

        func mode(_ name: String) -> Int? {
            try? FileManager.default.attributesOfItem(atPath: file(name).path)[.posixPermissions] as? Int
        }

        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    @Test("a link at the temporary name is refused, named, and never written through", arguments: cases)
    func aLinkAtTheTemporaryNameIsRefusedAndNeverWrittenThrough(_ testCase: Case) async throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        let store = [testCase.kind.option, testCase.kind.file]
        if let before = testCase.before {
            let made = try await folder.run(before + store)
            try #require(made.status == 0, "\(made.stderr)")
        }
        let storeBefore = folder.type(testCase.kind.file)
        try folder.plant(".\(testCase.kind.file).tmp", to: folder.notesFile)

        let result = try await folder.run(testCase.command + store)

        #expect(result.status != 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains(".\(testCase.kind.file).tmp is a symbolic link (to \"\(folder.notesFile.path)\")"), "\(result.stderr)")
        #expect(folder.notes.text == SharedFolder.notes, "the victim's file was written")
        #expect(folder.notes.mode == 0o640, "the victim's file changed its mode")
        #expect(folder.type(testCase.kind.file) == storeBefore, "the store became a link")
    }

    @Test("a link at a lock file's name is refused, named, and creates nothing", arguments: Kind.allCases, [".lock", ".run.lock"])
    func aLinkAtALockFileIsRefusedAndCreatesNothing(kind: Kind, lock: String) async throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        let target = folder.file("made-through-the-link")
        try folder.plant(kind.file + lock, to: target)

        let result = try await folder.run(Self.set + [kind.option, kind.file])

        #expect(result.status == 65, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("\(kind.file)\(lock) is a symbolic link (to \"\(target.path)\")"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target.path), "a file was made where the link points")
        #expect(folder.type(kind.file) == nil, "the store was written without its lock")
    }

    @Test("a run finds a link at a side file's name before anything runs", arguments: Kind.allCases, [".lock", ".run.lock", ".tmp"])
    func aRunFindsALinkAtASideFileBeforeAnythingRuns(kind: Kind, side: String) async throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        let name = side == ".tmp" ? ".\(kind.file).tmp" : kind.file + side
        try folder.plant(name, to: folder.notesFile)

        let result = try await folder.run(["run", "--manifest", "m.json", kind.option, kind.file])

        #expect(result.status == 65, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("\(name) is a symbolic link"), "\(result.stderr)")
        #expect(!result.stderr.contains("failed"), "a step ran: \(result.stderr)")
        #expect(folder.notes.text == SharedFolder.notes, "the victim's file was written")
    }

    // Another user's file needs two users: the tests as root, the command as nobody.
    @Test("a lock file another user made in a shared folder is named before anything runs",
          .enabled(if: OtherUser.isRoot), arguments: Kind.allCases, [".lock", ".run.lock"])
    func aLockFileAnotherUserMadeIsNamedBeforeAnythingRuns(kind: Kind, lock: String) async throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        // Another user's (the tests' own, not the one who runs the command), which they could hold.
        let planted = folder.file(kind.file + lock)
        try Data().write(to: planted)
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: planted.path)

        let result = try await folder.run(["run", "--manifest", "m.json", kind.option, kind.file])

        #expect(result.status == 65, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("\(kind.file)\(lock) belongs to another user (uid \(geteuid()))"), "\(result.stderr)")
        #expect(folder.type(kind.file) == nil, "the store was written")
    }

    @Test("the lock files a command makes are readable by their owner alone", arguments: Kind.allCases)
    func lockFilesAreReadableByTheirOwnerAlone(kind: Kind) async throws {
        let folder = try SharedFolder()
        defer { folder.remove() }

        let result = try await folder.run(Self.set + [kind.option, kind.file])

        #expect(result.status == 0, "\(result.stderr)")
        #expect(folder.mode(kind.file + ".lock") == 0o600)
        #expect(folder.mode(kind.file + ".run.lock") == 0o600)
    }

    @Test("a link the user made at the store's own path still names the store", arguments: Kind.allCases)
    func aLinkAtTheStorePathStillNamesTheStore(kind: Kind) async throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        try folder.plant(kind.file, to: folder.file("real-\(kind.file)"))

        let set = try await folder.run(Self.set + [kind.option, kind.file])
        let plan = try await folder.run(["plan", "--manifest", "m.json", "--json", kind.option, "real-\(kind.file)"])

        #expect(set.status == 0, "\(set.stderr)")
        #expect(folder.type(kind.file) == .typeSymbolicLink)
        #expect(try plan.json()["from"] as? String == "1.0", "\(plan.stdout)")
    }
}
