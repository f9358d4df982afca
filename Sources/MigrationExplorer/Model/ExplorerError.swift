import MigrationCore

/// A problem the front ends report to a person: each case renders its own message and knows
/// the exit status and the `--json` error kind it ends a command with.
///
/// ```swift
/// do { _ = try Version("abc") } catch {
///     let problem = ExplorerError.appVersion(of: "the app's version", error)
///     problem.description   // the app's version: "abc" is not a version: …
///     problem.status        // .unusableInput (65)
/// }
/// ```
public enum ExplorerError: Error, CustomStringConvertible, Equatable {
    /// The interactive explorer cannot draw: `reason` says why and what to do instead.
    case noTerminal(_ reason: String)
    /// A version the app declares (its version or build, or the device it starts from) is not
    /// one; `source` names it: `the app's version`, `--from`.
    case appVersion(of: String, VersionError)
    /// The real store, under a sandbox that starts from its records, cannot be read.
    case unreadableStore(_ reason: String)
    /// Writing the "from" device to the real store, when no device is simulated over one.
    case noSimulatedDevice
    /// Going back to the real store, with none named.
    case noRealStore
    /// `action` (reset, write) was refused: a run on `store` is going on.
    case runGoingOn(refused: String, store: String)

    /// The exit status of a command this error ends.
    public var status: ExitStatus {
        if case .noTerminal = self { return .noTerminal }
        return .unusableInput
    }

    /// The `kind` of the `--json` error object: a version the app declares is a bad version,
    /// like `--from`'s, not a store's problem.
    var kind: CommandFailure.Kind {
        switch self {
        case .noTerminal: .noTerminal
        case .appVersion: .version
        case .unreadableStore, .noSimulatedDevice, .noRealStore, .runGoingOn: .store
        }
    }

    /// What went wrong, and what to do.
    public var description: String {
        switch self {
        case .noTerminal(let reason): reason
        case .appVersion(let source, let error): "\(source): \(error)"
        case .unreadableStore(let reason): reason
        case .noSimulatedDevice: "there is no simulated device to write to a real store"
        case .noRealStore: "no real store to go back to: open one with --store, --defaults-plist, --simulator, --sqlite or --postgres"
        case .runGoingOn(let refused, let store): "\(refused): a run on \(store) is going on; try again once it has finished"
        }
    }
}
