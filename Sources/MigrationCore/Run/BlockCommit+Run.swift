/// What a run does differently on a store that commits a block with its record
/// (``TransactionalMigrationStore``): the one place the walk and ``ExactlyOnce`` ask.
extension BlockCommit {
    /// Whether a block's exclusion can be held across an asynchronous body's suspension points
    /// (by a thread of its own, see ``AsyncBlockExclusion``): not when it is a transaction,
    /// which belongs to the thread that opened it. There a synchronous body runs on the
    /// walk's own thread, inside the transaction, and an asynchronous one is refused.
    var holdsBlockAcrossSuspension: Bool { self == .recordAfterBlock }

    /// Keeps a block whose record could not be saved, reported as run but unrecorded; in a
    /// transaction, throws `recordError` out of it instead, so that the block's changes roll
    /// back with it rather than commit without their record.
    func keepBlock(despite recordError: MigrationStoreError) throws {
        if self == .recordInBlockTransaction { throw recordError }
    }
}

extension MigrationStore {
    /// How this store keeps a block and its record together.
    var blockCommit: BlockCommit { Self.blockCommit }

    /// Applies `change` to the current marks and saves what it changed and the records it
    /// appended (``saveMarks(_:appending:)``), under the store's lock, without reading or
    /// rewriting the history where the store can append.
    ///
    /// - Returns: the marks as saved, with only the appended records as history.
    func recordStep(_ change: (inout MigrationState) -> Void) throws -> MigrationState {
        try recordStep(change) { try saveMarks($0, appending: $0.history) }
    }

    /// ``recordStep(_:)`` that writes the changed marks and appended records with `save`.
    func recordStep(_ change: (inout MigrationState) -> Void, saving save: (MigrationState) throws -> Void) throws -> MigrationState {
        try withExclusiveAccess {
            var state = try loadMarks()
            state.history = []
            change(&state)
            try save(state)
            return state
        }
    }
}
