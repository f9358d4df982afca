import Foundation
import MigrationTestSupport
import MigrationCore
import Testing
@testable import MigrationExplorer

/// The terminal UI over a store that answers slowly (a database behind a slow link): the loop
/// draws and takes keys while the store has not answered, and shows each answer when it comes.
@Suite("Terminal UI: a slow store", .serialized, .onThreadOfItsOwn)
struct TUISlowStoreTests {
    static let size = Size(width: 80, height: 24)

    /// A terminal whose keys the test presses; it keeps every screen drawn.
    final class KeyedTerminal: Terminal, @unchecked Sendable {
        // Safe: the fields are only touched while `lock` is held; it is broadcast when a key
        // is pressed or the terminal closed, which wakes the loop's input thread.
        private let lock = NSCondition()
        private var keys: [Key] = []
        private var drawn: Screen?
        private var closed = false
        let size = TUISlowStoreTests.size
        let unicode = true

        func press(_ key: Key) {
            lock.withLock {
                keys.append(key)
                lock.broadcast()
            }
        }
        func press(_ action: Action) { press(Keymap.binding(for: action)!.keys[0]) }

        /// Whether the last screen drawn shows `text`.
        func shows(_ text: String) -> Bool { lock.withLock { drawn?.text.contains(text) == true } }
        var screen: String { lock.withLock { drawn?.text ?? "(nothing drawn)" } }

        func draw(_ screen: Screen) { lock.withLock { drawn = screen } }
        var readiness: any TerminalReadiness {
            SignalledReadiness(condition: lock) { [self] in closed ? nil : !keys.isEmpty }
        }
        func nextEvent(waitingAtMost milliseconds: Int) -> TerminalEvent? {
            lock.withLock { keys.isEmpty ? nil : .key(keys.removeFirst()) }
        }
        func terminationSignal() -> Int32? { nil }
        func clear() {}
        func close() {
            lock.withLock {
                closed = true
                lock.broadcast()
            }
        }
    }

    /// An explorer over a JSON file store whose answers wait at `gate`; the app at 1.1 has
    /// three migrations.
    static func explorer(gate: StoreGate, in folder: URL) throws -> Explorer {
        var registry = MigrationRegistry(appName: "Notes")
        registry.migrate(toVersion: "0.9", title: "Add GUIDs to notes")
        registry.migrate(toVersion: "1.0", title: "Move the attachments")
        registry.migrate(toVersion: "1.1", title: "Index tags")
        let store = GatedStore(store: FileMigrationStore(url: folder.appendingPathComponent("state.json")), gate: gate)
        return try Explorer(app: ExplorerApp(registry: registry, appVersion: "1.1"), options: ExplorerOptions(), realStore: store)
    }

    /// Starts the loop on `terminal`, on a thread of its own from the start (`Task { }` would
    /// wait for a thread of the concurrency pool, which the other tests keep busy); it ends with
    /// the quit key the test presses.
    static func start(_ explorer: Explorer, on terminal: KeyedTerminal) -> Task<TerminalApp.Leaving?, any Error> {
        OwnThread.task(named: "a test's terminal UI") { await TerminalApp(session: Session(explorer: explorer), terminal: terminal).run() }
    }

    @Test func theFirstFrameAndKeysThatNeedNoAnswerComeBeforeTheStoreAnswers() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let gate = StoreGate()
        defer { gate.open() }
        let terminal = KeyedTerminal()
        let loop = Self.start(try Self.explorer(gate: gate, in: folder), on: terminal)
        #expect(await waitUntil(timeout: 10) { terminal.shows("reading") }, "no first frame while the store has not answered:\n\(terminal.screen)")
        #expect(terminal.shows("Notes … → 1.1") && !terminal.shows("no plan"), "the frame before the answer claims what it cannot know:\n\(terminal.screen)")
        terminal.press(.help)
        #expect(await waitUntil(timeout: 10) { terminal.shows("Keys") }, "? waits for the store:\n\(terminal.screen)")
        terminal.press(.escape)
        terminal.press(.dryRun)
        #expect(await waitUntil(timeout: 10) { terminal.shows("waits for the store") }, "d does not say it waits:\n\(terminal.screen)")
        gate.open()
        #expect(await waitUntil { terminal.shows("pending") && !terminal.shows("reading") }, "the store's answer does not show:\n\(terminal.screen)")
        terminal.press(.dryRun)
        #expect(await waitUntil { terminal.shows("Dry run: 3 steps would run") }, "\(terminal.screen)")
        terminal.press(.escape)
        terminal.press(.quit)
        #expect(try await loop.value == nil)
    }

    @Test func aDryRunWaitingForTheStoreLeavesTheScreenResponsiveThenShowsItsResult() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let gate = StoreGate()
        defer { gate.open() }
        gate.open()
        let terminal = KeyedTerminal()
        let loop = Self.start(try Self.explorer(gate: gate, in: folder), on: terminal)
        #expect(await waitUntil { terminal.shows("pending") }, "\(terminal.screen)")
        gate.close()
        terminal.press(.dryRun)
        #expect(await waitUntil(timeout: 10) { gate.waiters > 0 }, "the dry-run does not ask the store")
        terminal.press(.help)
        #expect(await waitUntil(timeout: 10) { terminal.shows("Keys") }, "the screen froze while the dry-run waits:\n\(terminal.screen)")
        terminal.press(.escape)
        #expect(await waitUntil(timeout: 10) { terminal.shows("waits for the store") }, "\(terminal.screen)")
        gate.open()
        #expect(await waitUntil { terminal.shows("Dry run: 3 steps would run") }, "\(terminal.screen)")
        terminal.press(.escape)
        terminal.press(.quit)
        #expect(try await loop.value == nil)
    }
}
