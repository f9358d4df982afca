import Foundation

/// A store in a JSON file, for command-line tools and servers.
///
/// Writes replace the file atomically (temporary file, `fsync`, `rename`); an advisory lock on
/// `<file>.lock` keeps two processes from running the same migration. The path may be a
/// symbolic link: the store reads, locks and writes the file it points to, so every path to
/// one file is one store. A file that cannot be read, is not JSON, has a field this package
/// does not know, a duplicate key or a wrong type is an error: it is left byte for byte as it
/// was and nothing runs. One file can hold several independent domains (say, "defaults" and
/// "database"); every store object on one file, whatever its domain, shares one lock.
///
/// ```swift
/// let store = FileMigrationStore(url: URL(filePath: "/var/lib/notes/migrations.json"), domain: "database")
/// let state = try store.load()
/// ```
public final class FileMigrationStore: MigrationStore, MarksCaching {
    /// The path as given.
    public var url: URL { file.url }
    public let domain: String
    /// The file the records are in: ``url`` with every symbolic link resolved.
    public var fileURL: URL { file.fileURL }
    private let file: StoreFile
    private let cache: MarksCache
    public var location: String { file.location }

    /// The domain used when none is named.
    public static let defaultDomain = "default"

    public init(url: URL, domain: String = FileMigrationStore.defaultDomain) {
        self.domain = domain
        self.file = StoreFile(url: url, location: domain == Self.defaultDomain ? url.path : "\(url.path) (\(domain))")
        self.cache = file.resource.cache(for: "json " + domain)
    }

    public func load() throws -> MigrationState {
        var state = try readDocument().domains[domain] ?? .freshInstall
        for mark in RecordedMark.allCases { state.markSources[mark] = "\(url.path): domains.\(domain).\(mark.rawValue)" }
        return state
    }

    public func save(_ state: MigrationState) throws {
        try withExclusiveAccess {
            var document = try readDocument()
            document.domains[domain] = state
            let data: Data
            do { data = try JSONEncoder.migrationRecords.encode(document) } catch {
                throw MigrationStoreError(location: location, problem: .unwritable(String(describing: error)))
            }
            try file.replace(with: data)
            cache.invalidate()
        }
    }

    /// The marks, from the cache while the file is unchanged (one `stat`).
    public func loadMarks() throws -> MigrationState {
        try cachedMarks().state
    }

    func cachedMarks() throws -> MarksCache.Entry {
        try cache.marks(stamp: file.stamp, load: load)
    }

    public func withExclusiveAccess<T>(_ body: () throws -> T) throws -> T {
        try file.withRecords(body)
    }

    public func withExclusiveAccess<T>(toBlock block: String, _ body: (_ alreadyRunning: Bool) throws -> T) throws -> T {
        try file.withBlock(block, body)
    }

    /// Writes as many bytes as the records take, plus room to grow, beside the file and removes
    /// them again: a read-only folder, a missing permission or a full disk shows up here,
    /// before a body runs, rather than after it.
    public func prepareToWrite() throws {
        try file.prepareToWrite()
    }

    /// The descriptor holding the store's `flock` while the calling thread is inside
    /// ``withExclusiveAccess(_:)`` or running a block; `nil` outside them.
    ///
    /// A `flock` belongs to the open file, not to the process: a child process that inherits
    /// this descriptor (as its standard input, say) holds the lock too, and the lock lasts until
    /// every process holding it has exited, even when this process is killed first. Hand it
    /// to the commands a migration runs, so that no second run starts while one still runs.
    ///
    /// ```swift
    /// try store.withExclusiveAccess {
    ///     let lock = store.lockDescriptor!   // the child's standard input, for example
    /// }
    /// ```
    public var lockDescriptor: Int32? { file.resource.heldLockDescriptor }

    /// The domains the file holds records for, sorted; empty when the file does not exist.
    /// - Throws: ``MigrationStoreError`` when the file cannot be read or parsed.
    public func domains() throws -> [String] {
        try readDocument().domains.keys.sorted()
    }

    private func readDocument() throws -> Document {
        guard let data = try file.read() else { return Document() }
        if let problem = StrictJSON.problem(in: data) {
            throw MigrationStoreError(location: location, problem: .corrupt(problem))
        }
        do {
            let document = try JSONDecoder.migrationRecords.decode(Document.self, from: data)
            guard document.format == Document.currentFormat else {
                throw MigrationStoreError(
                    location: location,
                    problem: .corrupt("format \(document.format) is not \(Document.currentFormat); written by another release?")
                )
            }
            return document
        } catch let error as MigrationStoreError {
            throw error
        } catch {
            throw MigrationStoreError(location: location, problem: .corrupt(Self.describe(error)))
        }
    }

    private static func describe(_ error: Error) -> String {
        func path(_ context: DecodingError.Context) -> String { context.codingPath.map(\.stringValue).joined(separator: ".") }
        switch error {
        case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty:
            return "not valid JSON"
        case DecodingError.dataCorrupted(let context) where context.debugDescription == "unknown field":
            return "unknown field \"\(path(context))\"; nothing is dropped, so fix or remove it"
        case DecodingError.keyNotFound(let key, let context):
            return "missing \"\((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
             DecodingError.dataCorrupted(let context):
            return "unexpected value at \"\(path(context))\""
        default:
            return String(describing: error)
        }
    }

    /// The file's layout: a format number and one state per domain.
    struct Document: Codable {
        static let currentFormat = 1
        var format = Document.currentFormat
        var domains: [String: MigrationState] = [:]

        init() {}

        init(from decoder: any Decoder) throws {
            let container = try decoder.strictContainer(known: ["format", "domains"])
            format = try container.required(Int.self, "format")
            domains = try container.required([String: MigrationState].self, "domains")
        }
    }
}
