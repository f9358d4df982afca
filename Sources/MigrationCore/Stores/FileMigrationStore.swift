import Foundation

/// A store in a JSON file, for command-line tools and servers.
///
/// Writes replace the file atomically (temporary file, `fsync`, `rename`), an advisory lock on
/// `<file>.lock` keeps two processes from running the same migration, and a file that cannot be
/// read or parsed is an error: it is left byte for byte as it was and nothing runs. One file can
/// hold several independent domains (say, "defaults" and "database").
///
/// ```swift
/// let store = FileMigrationStore(url: URL(filePath: "/var/lib/notes/migrations.json"), domain: "database")
/// let state = try store.load()
/// ```
public final class FileMigrationStore: MigrationStore {
    public let url: URL
    public let domain: String
    private let lockFile: FileLock
    public var location: String { domain == Self.defaultDomain ? url.path : "\(url.path) (\(domain))" }

    /// The domain used when none is named.
    public static let defaultDomain = "default"

    public init(url: URL, domain: String = FileMigrationStore.defaultDomain) {
        self.url = url
        self.domain = domain
        self.lockFile = FileLock(path: url.path + ".lock")
    }

    public func load() throws -> MigrationState {
        try readDocument().domains[domain] ?? .freshInstall
    }

    public func save(_ state: MigrationState) throws {
        try withExclusiveAccess {
            var document = try readDocument()
            document.domains[domain] = state
            let data: Data
            do { data = try JSONEncoder.migrationRecords.encode(document) } catch {
                throw MigrationStoreError(location: location, problem: .unwritable(String(describing: error)))
            }
            do { try AtomicFile.replace(url, with: data) } catch {
                throw MigrationStoreError(location: location, problem: .unwritable(String(describing: error)))
            }
        }
    }

    public func withExclusiveAccess<T>(_ body: () throws -> T) throws -> T {
        do { return try lockFile.withLock(body) } catch let error as FileLock.LockError {
            throw MigrationStoreError(location: location, problem: .unlockable(error.description))
        }
    }

    /// The descriptor holding the store's `flock` while the calling thread is inside
    /// ``withExclusiveAccess(_:)``; `nil` outside it.
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
    public var lockDescriptor: Int32? { lockFile.heldDescriptor }

    /// The domains the file holds records for, sorted; empty when the file does not exist.
    /// - Throws: ``MigrationStoreError`` when the file cannot be read or parsed.
    public func domains() throws -> [String] {
        try readDocument().domains.keys.sorted()
    }

    private func readDocument() throws -> Document {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            if !FileManager.default.fileExists(atPath: url.path) { return Document() }
            throw MigrationStoreError(location: location, problem: .unreadable(error.localizedDescription))
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
        switch error {
        case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty:
            "not valid JSON"
        case DecodingError.keyNotFound(let key, let context):
            "missing \"\((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
             DecodingError.dataCorrupted(let context):
            "unexpected value at \"\(context.codingPath.map(\.stringValue).joined(separator: "."))\""
        default:
            String(describing: error)
        }
    }

    /// The file's layout: a format number and one state per domain.
    struct Document: Codable {
        static let currentFormat = 1
        var format = Document.currentFormat
        var domains: [String: MigrationState] = [:]
    }
}
