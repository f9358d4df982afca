/// A store that adds records to its history without reading or rewriting the rest of it, so
/// that a run of n steps costs n, not n². This package's stores are; any other store records
/// a step through ``MigrationStore/update(_:)``.
package protocol HistoryAppending: MigrationStore {
    /// Records the four marks and ``MigrationState/historyIsComplete`` of `state` (its history
    /// is not read) and appends `records` to the history, all or nothing; durable on return.
    func saveMarks(_ state: MigrationState, appending records: [MigrationRecord]) throws
}

extension MigrationStore {
    /// Applies `change` to the current marks and saves what it changed and the records it
    /// appended, under the store's lock, without reading or rewriting the history where the
    /// store can append.
    ///
    /// - Returns: the marks as saved, with only the appended records as history.
    func recordStep(_ change: (inout MigrationState) -> Void) throws -> MigrationState {
        guard let appending = self as? any HistoryAppending else { return try update(change) }
        return try withExclusiveAccess {
            var state = try loadMarks()
            state.history = []
            change(&state)
            try appending.saveMarks(state, appending: state.history)
            return state
        }
    }
}
