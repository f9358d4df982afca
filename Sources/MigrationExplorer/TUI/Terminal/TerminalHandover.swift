import CNcurses
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal belongs to the UI's loop until it is given back, by the loop or by a migration
/// body that exits or crashes on another thread during a run. Once given back, the loop neither
/// draws nor reads a key: either would put the terminal back into the UI's mode (ncurses
/// re-enters it on its next refresh) just before the process ends, leaving the shell a blank
/// alternate screen.
///
/// ```swift
/// TerminalHandover.whileOwned { refresh() }   // nothing once given back
/// ```
enum TerminalHandover {
    /// Allocated before any handler may need it (see ``prepare()``).
    nonisolated(unsafe) private static let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        return mutex
    }()
    // Safe: only touched with `mutex` held (or, in a crash handler, after waiting for it).
    nonisolated(unsafe) private static var givenBack = false

    /// The UI has the terminal again, as it opens it.
    static func prepare() {
        pthread_mutex_lock(mutex)
        givenBack = false
        pthread_mutex_unlock(mutex)
    }

    /// Runs `body` with the terminal; `nil`, without running it, once the terminal was given back.
    static func whileOwned<T>(_ body: () -> T) -> T? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return givenBack ? nil : body()
    }

    /// Gives the terminal back (`endwin`) once, after what the loop is drawing: from an exit or
    /// crash handler, which waits a third of a second at most for the loop (a crash inside a draw
    /// must not wait for itself).
    static let giveBack: @convention(c) () -> Void = {
        var locked = false
        for _ in 0..<300 {
            if pthread_mutex_trylock(mutex) == 0 {
                locked = true
                break
            }
            usleep(1000)
        }
        if !givenBack {
            givenBack = true
            if !isendwin() { endwin() }
        }
        if locked { pthread_mutex_unlock(mutex) }
    }
}
