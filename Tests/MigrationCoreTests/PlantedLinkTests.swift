import Foundation
import Testing
@testable import MigrationCore

/// Links another user plants beside a store in a folder every user may write (mode 1777, as
/// `/tmp`): a store never writes, truncates, changes the mode of or creates a file through its
/// temporary or lock names; a link the user made at the store's own path still names the store.
@Suite("Links planted beside a store")
struct PlantedLinkTests {
    enum Kind: String, CaseIterable, Sendable {
        case json, plist

        var file: String { self == .json ? "state.json" : "prefs.plist" }

        func store(at url: URL) -> any MigrationStore {
            self == .json ? FileMigrationStore(url: url) : PropertyListMigrationStore(url: url)
        }
    }

    /// A folder of mode 1777 holding `notes.txt`, a file of the user's that planted links name.
    struct SharedFolder {
        static let notes = "the user's own notes\n"
        let url: URL
        var notesFile: URL { url.appendingPathComponent("notes.txt") }

        init() throws {
            url = try temporaryFolder()
            try FileManager.default.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: url.path)
            try Data(Self.notes.utf8).write(to: notesFile)
            try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: notesFile.path)
        }

        func file(_ name: String) -> URL { url.appendingPathComponent(name) }

        /// Plants a symbolic link named `name` to `target`.
        func plant(_ name: String, to target: URL) throws {
            try FileManager.default.createSymbolicLink(atPath: file(name).path, withDestinationPath: target.path)
        }

        /// The user's notes as they are now: their text and mode.
        var notes: (text: String, mode: Int?) {
            ((try? String(contentsOf: notesFile, encoding: .utf8)) ?? "", mode("notes.txt"))
        }

        func isSymbolicLink(_ name: String) -> Bool {
            (try? FileManager.default.attributesOfItem(atPath: file(name).path)[.type] as? FileAttributeType) == .typeSymbolicLink
        }

        func mode(_ name: String) -> Int? {
            try? FileManager.default.attributesOfItem(atPath: file(name).path)[.posixPermissions] as? Int
        }

        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    @Test("a link at the temporary name is refused, named, and never written through", arguments: Kind.allCases)
    func aLinkAtTheTemporaryNameIsRefusedAndNeverWrittenThrough(kind: Kind) throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        let store = kind.store(at: folder.file(kind.file))
        try store.save(MigrationState(lastMigratedVersion: "1.0"))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: folder.file(kind.file).path)
        try folder.plant(".\(kind.file).tmp", to: folder.notesFile)

        let error = try #require(throws: MigrationStoreError.self) { try store.save(MigrationState(lastMigratedVersion: "2.0")) }

        #expect(error.reason.contains(".\(kind.file).tmp is a symbolic link (to \"\(folder.notesFile.path)\")"), "\(error)")
        #expect(folder.notes.text == SharedFolder.notes)
        #expect(folder.notes.mode == 0o640)
        #expect(!folder.isSymbolicLink(kind.file), "the store became a link")
        #expect(folder.mode(kind.file) == 0o600, "the store lost its mode")
        #expect(try kind.store(at: folder.file(kind.file)).load().lastMigratedVersion == "1.0")
    }

    @Test("the proof that a store can be written never writes through a link at the temporary name", arguments: Kind.allCases)
    func theProofOfWritingNeverWritesThroughALinkAtTheTemporaryName(kind: Kind) throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        try folder.plant(".\(kind.file).tmp", to: folder.notesFile)

        let error = try #require(throws: MigrationStoreError.self) { try kind.store(at: folder.file(kind.file)).prepareToWrite() }

        #expect(error.reason.contains("is a symbolic link"), "\(error)")
        #expect(folder.notes.text == SharedFolder.notes)
        #expect(folder.isSymbolicLink(".\(kind.file).tmp"), "the planted link was removed as if it were the store's own file")
    }

    @Test("a temporary file of the user's own that an interrupted write left behind is replaced", arguments: Kind.allCases)
    func aLeftoverTemporaryFileOfTheUsersOwnIsReplaced(kind: Kind) throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        try Data("cut short".utf8).write(to: folder.file(".\(kind.file).tmp"))
        let store = kind.store(at: folder.file(kind.file))

        try store.save(MigrationState(lastMigratedVersion: "1.0"))

        #expect(try kind.store(at: folder.file(kind.file)).load().lastMigratedVersion == "1.0")
        #expect(!FileManager.default.fileExists(atPath: folder.file(".\(kind.file).tmp").path))
    }

    @Test("a link at the lock file is refused, named, and creates nothing where it points", arguments: Kind.allCases)
    func aLinkAtTheLockFileIsRefusedAndCreatesNothing(kind: Kind) throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        let target = folder.file("created-by-the-lock")
        try folder.plant("\(kind.file).lock", to: target)

        let error = try #require(throws: MigrationStoreError.self) {
            try kind.store(at: folder.file(kind.file)).save(MigrationState(lastMigratedVersion: "1.0"))
        }

        #expect(error.reason.contains("\(kind.file).lock is a symbolic link (to \"\(target.path)\")"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(!FileManager.default.fileExists(atPath: folder.file(kind.file).path), "the store was written without its lock")
    }

    @Test("a link at the run lock file is refused, named, and creates nothing where it points", arguments: Kind.allCases)
    func aLinkAtTheRunLockFileIsRefusedAndCreatesNothing(kind: Kind) throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        let target = folder.file("created-by-the-run-lock")
        try folder.plant("\(kind.file).run.lock", to: target)
        let store = kind.store(at: folder.file(kind.file))

        let error = try #require(throws: MigrationStoreError.self) {
            try store.withoutRuns { try store.save(MigrationState(lastMigratedVersion: "1.0")) }
        }

        #expect(error.reason.contains("\(kind.file).run.lock is a symbolic link (to \"\(target.path)\")"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(!FileManager.default.fileExists(atPath: folder.file(kind.file).path), "the change was made without its lock")
    }

    @Test("lock files are made readable by their owner alone, so no other user can hold them", arguments: Kind.allCases)
    func lockFilesAreReadableByTheirOwnerAlone(kind: Kind) async throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        let store = kind.store(at: folder.file(kind.file))

        try store.withoutRuns { try store.save(MigrationState(lastMigratedVersion: "1.0")) }

        #expect(folder.mode("\(kind.file).lock") == 0o600)
        #expect(folder.mode("\(kind.file).run.lock") == 0o600)
    }

    @Test("a link the user made at the store's own path still names the store", arguments: Kind.allCases)
    func aLinkAtTheStorePathStillNamesTheStore(kind: Kind) async throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        try folder.plant(kind.file, to: folder.file("real-\(kind.file)"))
        let store = kind.store(at: folder.file(kind.file))

        try store.withoutRuns { try store.save(MigrationState(lastMigratedVersion: "1.0")) }

        #expect(folder.isSymbolicLink(kind.file))
        #expect(try kind.store(at: folder.file("real-\(kind.file)")).load().lastMigratedVersion == "1.0")
    }
}
