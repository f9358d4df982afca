import MigrationCore

/// How a store the explorer opens waits for another process that holds it (another run, a
/// reset, the command of a killed run), and whom it tells: a value the store is opened with
/// (``StoreLocation/open(waiting:)``), so that each command's stores wait as its `--wait
/// SECONDS` or `--no-wait` says and report to that command alone.
///
/// ```swift
/// let waiting = StoreWaiting(patience: .upTo(.seconds(30))) { change in
///     if case .waiting(let holder) = change { print("held by \(holder ?? "another process")") }
/// }
/// let store = StoreLocation.jsonFile("state.json").open(waiting: waiting)
/// ```
public struct StoreWaiting: Sendable {
    /// How long to wait before giving up with a busy error.
    public var patience: LockPatience
    /// Told when a wait starts (with the holder, in words, when the system names it) and, for
    /// a store that locks files, when it ends with the store taken (a PostgreSQL store tells
    /// only the start); `nil`: nobody is told. Called on the waiting thread, while the store
    /// holds its own locks: it must return soon and must not use the store.
    public var onChange: (@Sendable (StoreWaitChange) -> Void)?

    /// Waiting as `patience` allows, telling `onChange`.
    public init(patience: LockPatience = .forever, onChange: (@Sendable (StoreWaitChange) -> Void)? = nil) {
        self.patience = patience
        self.onChange = onChange
    }

    /// The same for a store of this package that locks files.
    var lockPolicy: LockWaiting.Policy {
        guard let tell = onChange else { return LockWaiting.Policy(patience: patience) }
        return LockWaiting.Policy(patience: patience) { change in
            switch change {
            case .waiting(let holder): tell(.waiting(holder: holder?.description))
            case .acquired: tell(.acquired)
            }
        }
    }
}

/// A wait for a store another process holds: its start, or its end with the store taken.
public enum StoreWaitChange: Sendable, Equatable {
    /// The store is held; `holder`: who holds it, in words ("pid 4242 (`migration-explorer
    /// run`, since 14:02:11)"), when the system says.
    case waiting(holder: String?)
    /// The store was taken after a wait.
    case acquired
}
