/// A store could not be read or written. The records on disk are left as they were.
///
/// ```swift
/// do { _ = try FileMigrationStore(url: url).load() }
/// catch let error as MigrationStoreError { print(error) } // state.json: is not valid JSON (…); …
/// ```
public struct MigrationStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, each with the reason in words.
    public enum Problem: Sendable, Equatable {
        /// The records exist but could not be read (permissions, a folder in the way, I/O).
        case unreadable(String)
        /// The records were read but are not what this package writes.
        case corrupt(String)
        /// The new records could not be written.
        case unwritable(String)
        /// The store cannot be written by this process at all (a missing permission, a read-only
        /// file or file system): found before anything ran or was written.
        case readOnly(String)
        /// The lock that keeps processes apart could not be taken.
        case unlockable(String)
        /// Another process held the lock for longer than this one would wait (see
        /// `LockWaiting`): "held by pid 4242 (`migration-explorer run`, since 14:02:11); gave up after 5 s".
        case busy(String)
    }

    /// The store's ``MigrationStore/location``.
    public let location: String
    /// What went wrong.
    public let problem: Problem

    /// An error for the store at `location`.
    ///
    /// ```swift
    /// throw MigrationStoreError(location: "state.json", problem: .unreadable("permission denied"))
    /// ```
    public init(location: String, problem: Problem) {
        self.location = location
        self.problem = problem
    }

    /// What went wrong, without the location or what it meant for the run: "permission
    /// denied: this user (uid 501) may not write the file /srv/notes/state.json".
    public var reason: String {
        switch problem {
        case .unreadable(let why), .corrupt(let why), .unwritable(let why), .readOnly(let why), .unlockable(let why), .busy(let why): why
        }
    }

    /// The location, the reason, and what it meant: whether anything ran or was written.
    public var description: String {
        switch problem {
        case .unreadable(let why):
            "\(location): cannot be read (\(why)); nothing was run"
        case .corrupt(let why):
            "\(location): is not a migration record (\(why)); it was left untouched and nothing was run; repair it or move it away to start afresh"
        case .unwritable(let why):
            "\(location): cannot be written (\(why)); the previous records are unchanged"
        case .readOnly(let why):
            "\(location): cannot be written (\(why)); nothing was run or written"
        case .unlockable(let why):
            "\(location): cannot be locked (\(why)); nothing was run"
        case .busy(let why):
            "\(location): in use by another process, \(why)"
        }
    }
}
