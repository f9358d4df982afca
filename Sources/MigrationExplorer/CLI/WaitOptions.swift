import ArgumentParser
import MigrationCore

/// How long `run` and `reset` wait for a store another process holds: `--wait SECONDS`,
/// `--no-wait`, or as long as it takes.
struct WaitOptions: ParsableArguments {
    @Option(name: .customLong("wait"), parsing: .unconditional,
            help: ArgumentHelp("Give up (exit \(ExitStatus.storeBusy.rawValue)) when another process holds the store for longer than this many seconds (default: wait as long as it takes).", valueName: "seconds"))
    var seconds: Double?

    @Flag(name: .customLong("no-wait"), help: "Give up at once (exit \(ExitStatus.storeBusy.rawValue)) when another process holds the store.")
    var noWait = false

    func validate() throws {
        if noWait, seconds != nil { throw ValidationError("give --wait SECONDS or --no-wait, not both") }
        if let seconds, !(seconds >= 0 && seconds <= 31_536_000) {
            throw ValidationError("--wait must be a number of seconds from 0 to a year (31536000)")
        }
    }

    /// How long to wait: `--no-wait`, `--wait SECONDS`, or as long as it takes.
    var patience: LockPatience {
        noWait ? .noWait : seconds.map { .upTo(.seconds($0)) } ?? .forever
    }

    /// How the stores a command opens (``StoreBackend/open(waiting:)``) wait for other
    /// processes as the options say, telling `onChange` (nobody with `--no-wait`: nothing waits).
    func storeWaiting(onChange: (@Sendable (StoreWaitChange) -> Void)? = nil) -> StoreWaiting {
        StoreWaiting(patience: patience, onChange: noWait ? nil : onChange)
    }
}
