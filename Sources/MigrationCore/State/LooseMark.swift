/// A recorded mark that is not a strict version (`"1.0-beta"`, `"2.0b"`, `"1.4 (18)"`, written
/// loosely by another library), read as the version made of its leading numbers. It never
/// blocks anything, but a plan lists it, so that no one reads a store without knowing.
///
/// ```swift
/// for mark in plan.looseMarks { print("warning: \(mark)") }
/// // warning: MTMigration.lastMigrationVersion is "1.0-beta", not a version; it counts as 1.0
/// ```
public struct LooseMark: Sendable, Equatable, CustomStringConvertible {
    /// Which of the four marks.
    public let mark: RecordedMark
    /// Where it was read: a `UserDefaults` key, a file's field; the mark's phrase otherwise.
    public let source: String
    /// The value as recorded.
    public let recorded: String
    /// The version it counts as.
    public let countsAs: Version

    /// Where it was read, the value and what it counts as, as plans and runs print it.
    public var description: String { "\(source) is \"\(recorded)\", not a version; it counts as \(countsAs.text)" }
}
