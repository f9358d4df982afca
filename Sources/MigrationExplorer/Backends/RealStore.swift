import Foundation
import MigrationCore
import MigrationManifest

/// A real store the explorer opened (``StoreBackend/open(waiting:)``): what the explorer, its
/// commands and a manifest's commands need of it beyond loading and saving records.
///
/// ```swift
/// let store: any RealStore = StoreLocation.defaultsPlist("com.example.notes.plist").open()
/// print(store.displayPath, try store.load().lastMigratedVersion ?? "nothing recorded")
/// ```
public protocol RealStore: MigrationStore {
    /// How people name it: the file's path, or a database server's URL without its password.
    var displayPath: String { get }
    /// Its short name, in messages that say it is left alone: "state.json"; a server's database.
    var name: String { get }
    /// How a header shows it: its path, with the words a kind adds ("SQLite ", " (default)").
    var label: StoreLabel { get }
    /// The descriptor holding the lock of the block this process runs (a file's `flock`, a
    /// database's block lock, a server connection whose session holds it), which the block's
    /// manifest command inherits so that the lock lasts as long as the command, even when
    /// this process is killed; `nil` when nothing can be handed over.
    var lockDescriptor: Int32? { get }
    /// The environment variables of this process that hold the store's secret: a manifest's
    /// commands do not inherit them.
    var secretVariables: [String] { get }
    /// Runs a manifest's `"sql"` in the transaction that records its migration; `nil` for a
    /// store that is not a database.
    var manifestSQL: ManifestSQL.Runner? { get }
    /// The domains it holds records for (`nil`: records without a domain, such as a plist's
    /// MTMigration keys), for `reset`.
    /// - Throws: the store's error when it cannot be read.
    func recordedDomains() throws -> [String?]
    /// The runs going on now, as a store that can name them says, the first started first;
    /// empty for a store that cannot, and when they cannot be read.
    func runsGoingOn() -> [OngoingRun]
    /// Records under other spellings that would outrank the marks `set` writes, removed as it
    /// writes them (key and value); empty for a store that has none.
    /// - Throws: the store's error when it cannot be read.
    func supersededMarks() throws -> [(key: String, value: String)]
    /// Another process's changes to what the store holds, for as long as the stream is
    /// iterated (cancelling the task iterating it ends the following): the explorer's live
    /// screen and `plan --watch` re-read the store on each. The store's own writes may be
    /// reported too; a re-read shows they changed nothing.
    /// - Throws: when the store cannot be followed at all (its folder cannot be watched).
    func changes() throws -> AsyncStream<StoreChange>
}

extension RealStore {
    public var label: StoreLabel { StoreLabel(path: displayPath) }
    public var lockDescriptor: Int32? { nil }
    /// A file has no secret.
    public var secretVariables: [String] { [] }
    public var manifestSQL: ManifestSQL.Runner? { nil }
    public func runsGoingOn() -> [OngoingRun] { [] }
    public func supersededMarks() throws -> [(key: String, value: String)] { [] }
}
