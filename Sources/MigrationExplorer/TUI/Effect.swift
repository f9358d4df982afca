import MigrationCore

/// What ``Update`` asks for beside a new state, as a value: the loop's runtime carries it out
/// off the loop and feeds its result back as an event (``Event/store(_:)`` for the store's
/// work, ``Event/run(_:)`` for a run), as bubbletea's commands and TCA's effects do. Nothing
/// in ``Update`` or ``Session`` waits for a store.
///
/// ```swift
/// let effect = Update.handle(.key(.character("d")), &state, layout: layout)   // .dryRun
/// ```
package enum Effect: Equatable, Sendable {
    /// Read the store: the plan, what the store allows, the runs going on. A session's first effect.
    case read
    /// Read the store again after another process changed it (`writer`: who, where the store
    /// knows): the plan shows, and the message line says what changed.
    case follow(writer: String?)
    case dryRun, reset
    /// Start a run of the plan (the loop's: it feeds the run's updates back as events).
    case run
    /// Stop the run in progress: its running command's group is ended, nothing after it starts.
    case cancelRun
    /// Give up waiting for a cancelled run: its command's group is killed, and the loop quits
    /// at once.
    case abandonRun
    /// Opens the upgrade matrix.
    case matrix
    /// Write the simulated "from" device to the real store.
    case writeFrom
    /// A device that last migrated at `version` and `build` (neither: a fresh install).
    case setFrom(version: Version?, build: Version?)
    /// The device of a matrix row: it last ran `release`, with no build recorded (`nil`: a
    /// fresh install).
    case setFromRelease(Version?)
    /// Upgrade to app version `version` and build `build` (`nil`: the build stays).
    case setTo(version: Version, build: Version?)
    /// Play the real store as it records again, after a simulated device.
    case backToRealStore
    /// Leave the loop; a run going on is cancelled first, and waited for a while.
    case quit
    /// Repaint every cell of the terminal (Ctrl-L).
    case redraw
}

extension Effect {
    /// Whether the store carries the effect out (``StoreWork``), answering with ``Event/store(_:)``.
    var isStoreWork: Bool {
        switch self {
        case .read, .follow, .dryRun, .reset, .matrix, .writeFrom, .setFrom, .setFromRelease, .setTo, .backToRealStore: true
        case .run, .cancelRun, .abandonRun, .quit, .redraw: false
        }
    }

    /// Whether the effect must wait for the store's answer to the one before: the store's
    /// work, one at a time, and a run, which starts from what the store last answered.
    var needsTheStore: Bool { isStoreWork || self == .run }

    /// What waits while the store works on it, as the message line says it ("The dry run
    /// waits for the store…").
    var waitingSubject: String {
        switch self {
        case .read: "The plan"
        case .follow: "Showing the store's change"
        case .dryRun: "The dry run"
        case .reset: "The reset"
        case .matrix: "The upgrade matrix"
        case .writeFrom: "Writing the device"
        case .setFrom, .setFromRelease: "The new \"from\" device"
        case .setTo: "The new app version"
        case .backToRealStore: "Going back to the real store"
        case .run: "The run"
        case .cancelRun, .abandonRun, .quit, .redraw: "The key"
        }
    }
}
