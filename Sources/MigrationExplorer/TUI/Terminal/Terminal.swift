/// A full-screen terminal the UI draws on and reads keys from. The ncurses implementation is
/// the only code that touches C.
package protocol Terminal: AnyObject {
    var size: Size { get }
    /// Whether UTF-8 glyphs can be drawn (a UTF-8 locale).
    var unicode: Bool { get }
    func draw(_ screen: Screen)
    /// What the loop's input thread blocks on until a key, a resize or a termination signal
    /// may be waiting (see ``TerminalInput``).
    var readiness: any TerminalReadiness { get }
    /// Waits up to `milliseconds` for a key or a resize; `nil` when the wait timed out or was
    /// interrupted.
    func nextEvent(waitingAtMost milliseconds: Int) -> TerminalEvent?
    /// A SIGHUP, SIGINT or SIGTERM caught since the last call, if any.
    func terminationSignal() -> Int32?
    /// Forgets what is on the screen, so the next draw repaints every cell (Ctrl-L).
    func clear()
    /// Gives the terminal back as it was; ``readiness`` stops waiting.
    func close()
}

/// Blocks the calling thread, not the loop's, until a terminal's input may be waiting.
///
/// ```swift
/// while readiness.wait() { mailbox.post(.terminalReady) }
/// ```
package protocol TerminalReadiness: Sendable {
    /// Returns `true` when a key, a resize or a termination signal may be waiting, `false`
    /// once the terminal is closed.
    func wait() -> Bool
}

package enum TerminalEvent: Sendable, Equatable {
    case key(Key)
    case resize(Size)
}
