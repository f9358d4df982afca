extension MigrationState {
    /// Names where the store read each mark that is not a strict version, the only marks a
    /// diagnostic names (see ``LooseMark`` and ``MigrationStateError``): what a store's launch
    /// read records in ``markSources``. With every mark a strict version, the launch builds no
    /// dictionary (see ``LaunchCheck``); a full ``MigrationStore/load()`` names every mark.
    mutating func nameSourcesOfLooseMarks(_ source: (RecordedMark) -> String?) {
        for mark in RecordedMark.allCases {
            guard let text = self[mark], (try? Version(text)) == nil, let name = source(mark) else { continue }
            markSources[mark] = name
        }
    }
}
