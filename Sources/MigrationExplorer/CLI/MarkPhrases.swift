import MigrationCore

extension MigrationState {
    /// The recorded marks, as people read them: "last migrated version 1.0", …
    var markPhrases: [String] {
        RecordedMark.allCases.compactMap { mark in self[mark].map { "\(mark.phrase) \($0)" } }
    }
}
