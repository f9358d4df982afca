/// How `migration-explorer` (or an app's own explorer) ends: every status a command exits with,
/// what it means, and the only place either is written. The help text and the command-line
/// article's table are made from it; a signal that stops a run adds
/// ``signalBase`` to its number instead (``stopped(bySignal:)``).
///
/// ```swift
/// ExitStatus.usage.rawValue                 // 64, like EX_USAGE
/// ExitStatus.storeBusy.meaning              // "another process held the store for longer than --wait allowed"
/// ExitStatus.stopped(bySignal: SIGTERM)     // 143
/// ```
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// The command did what it was asked.
    case success = 0
    /// A migration failed, could not be recorded, or a body cancelled the run; earlier ones stay
    /// recorded.
    case migrationFailed = 1
    /// An interactive session was asked for without a usable terminal.
    case noTerminal = 2
    /// Bad usage: an unknown option, options that do not go together, a sandbox run of real
    /// commands without `--yes` (`EX_USAGE`).
    case usage = 64
    /// A manifest, version or store that cannot be used (`EX_DATAERR`).
    case unusableInput = 65
    /// A PostgreSQL server that cannot be reached (`EX_UNAVAILABLE`).
    case serverUnavailable = 69
    /// The system refuses what the explorer needs: too few open files, too little address
    /// space, a thread it would not start (`EX_OSERR`).
    case systemLimit = 71
    /// Standard output could not be written; what the command did still happened (`EX_IOERR`).
    case outputLost = 74
    /// Another process held the store for longer than `--wait` allowed (`EX_TEMPFAIL`: try
    /// again later).
    case storeBusy = 75

    /// What a signal that stops a run adds to its number: SIGINT ends with 130.
    public static let signalBase: Int32 = 128

    /// The status of a run stopped by `signal`: 128 + its number.
    ///
    /// ```swift
    /// ExitStatus.stopped(bySignal: SIGINT)   // 130
    /// ```
    public static func stopped(bySignal signal: Int32) -> Int32 {
        signalBase + signal
    }

    /// What the status means, in the words of the help text.
    public var meaning: String {
        switch self {
        case .success: "success"
        case .migrationFailed: "a migration failed or cancelled the run (earlier ones stay recorded)"
        case .noTerminal: "no terminal for the interactive explorer"
        case .usage: "bad usage"
        case .unusableInput: "a manifest, version or store that cannot be used"
        case .serverUnavailable: "a PostgreSQL server that cannot be reached"
        case .systemLimit: "too few open files or too little address space (ulimit -n, -v), or a thread the system refused"
        case .outputLost: "standard output could not be written"
        case .storeBusy: "another process held the store for longer than --wait allowed"
        }
    }

    /// What a stopping signal's status means, in the words of the help text.
    public static let signalMeaning = "SIGINT, SIGTERM or SIGHUP stopped a run"

    /// Every status and its meaning, for `--help`: `0 success; 1 a migration failed …; 128 + the
    /// signal when SIGINT, SIGTERM or SIGHUP stopped a run.`
    public static var helpText: String {
        let statuses = allCases.map { "\($0.rawValue) \($0.meaning)" } + ["\(signalBase) + the signal when \(signalMeaning)"]
        return "Exit status: " + statuses.joined(separator: "; ") + "."
    }
}
