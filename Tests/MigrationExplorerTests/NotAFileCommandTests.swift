import Foundation
import Testing

/// A FIFO, a device or a folder named as a store or as a manifest: the command says what it
/// found, naming the path, at once: it never waits on a FIFO, never reads a device without end,
/// and never calls it a missing permission.
@Suite("Stores and manifests that are not files", .serialized)
struct NotAFileCommandTests {
    enum Thing: String, CaseIterable, Sendable {
        case fifo, devZero, devNull, folder

        /// What the command must call it.
        var description: String {
            switch self {
            case .fifo: "is a FIFO (named pipe)"
            case .devZero, .devNull: "is a character device"
            case .folder: "is a directory"
            }
        }

        /// Makes the thing in `folder` (the devices are the system's); its path.
        func make(in folder: URL) throws -> String {
            let path = folder.appendingPathComponent("thing").path
            switch self {
            case .fifo:
                guard mkfifo(path, 0o666) == 0 else { throw CocoaError(.fileWriteUnknown) }
                _ = chmod(path, 0o666)
                return path
            case .devZero: return "/dev/zero"
            case .devNull: return "/dev/null"
            case .folder:
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
                return path
            }
        }
    }

    enum Option: String, CaseIterable, Sendable {
        case store = "--store", defaultsPlist = "--defaults-plist", sqlite = "--sqlite", manifest = "--manifest"

        /// The commands that read (and, for a store, write) what the option names.
        func commands(_ path: String) -> [[String]] {
            if self == .manifest { return [["plan", "--manifest", path]] }
            return [["plan", "--manifest", "m.json", rawValue, path],
                    ["set", "--manifest", "m.json", "--version", "1.0", rawValue, path]]
        }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let thing: Thing
        let option: Option
        var testDescription: String { "\(thing.rawValue) as \(option.rawValue)" }
    }

    static let cases = Thing.allCases.flatMap { thing in Option.allCases.map { Case(thing: thing, option: $0) } }
    static let manifest = #"{ "app": "Things", "appVersion": "1.0", "releases": ["1.0"], "migrations": [ { "version": "1.0", "title": "one", "run": "true" } ] }"#

    @Test("says what it is, at once, and exits 65", arguments: cases)
    func saysWhatItIsAtOnce(_ testCase: Case) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try folder.appendingPathComponent("m.json").write(Self.manifest)
        let path = try testCase.thing.make(in: folder)

        for command in testCase.option.commands(path) {
            let result = try await #require(try OtherUser.run(command, in: folder, endingWithin: 60), "\(command[0]) did not end")
            #expect(result.status == 65, "\(command[0]): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains(path) && result.stderr.contains(testCase.thing.description), "\(command[0]): \(result.stderr)")
            #expect(!result.stderr.lowercased().contains("permission"), "\(command[0]): \(result.stderr)")
        }
    }
}
