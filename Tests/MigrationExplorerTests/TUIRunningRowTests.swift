import Foundation
import MigrationCore
import Testing
@testable import MigrationExplorer

/// A run of more steps than the table shows: the table follows the running step, and once the
/// run ends the user's keys move the selection from where it stopped.
@Suite("Terminal UI: the running row stays in view")
struct TUIRunningRowTests {
    static let size = Size(width: 80, height: 24)

    struct Failure: Error {}

    /// 200 migrations, 1.1 to 1.200, all pending; `failing` throws.
    func session(failing: Int? = nil) async throws -> Session {
        var registry = MigrationRegistry(appName: "Notes")
        for step in 1...200 {
            registry.migrate(toVersion: "1.\(step)", title: "Step \(step)") { _ in
                if step == failing { throw Failure() }
            }
        }
        return await Session.opened(explorer: try Explorer(app: ExplorerApp(registry: registry, appVersion: "2.0"), options: ExplorerOptions()))
    }

    func screen(_ state: ViewState) -> String { Render.screen(state, size: Self.size, unicode: true).text }

    /// The table's row of `version` on `screen`, if it shows.
    func row(_ version: String, on screen: String) -> String? {
        screen.split(separator: "\n").first { $0.contains("version \(version) ") }.map(String.init)
    }

    @Test func everyFrameOfALongRunShowsTheRunningRowSelected() async throws {
        var session = try await session()
        let frames = Locked<[(running: String, screen: String)]>([])
        let key = try #require(Keymap.binding(for: .runPending)?.keys.first)
        await session.handle(key, size: Self.size) { state in
            guard let running = state.runningStep else { return }
            frames.withLock { $0.append((running.label, screen(state))) }
        }
        #expect(frames.value.count == 200)
        for (label, screen) in frames.value {
            let version = String(try #require(label.split(separator: " ").dropFirst().first, "\(label)"))
            let row = row(version, on: screen)
            #expect(row?.contains("▸ running…") == true, "\(label) is not in view:\n\(screen)")
            #expect(row?.hasPrefix("▶") == true, "\(label) is not selected:\n\(screen)")
        }
    }

    @Test func aRunStartedFromTheLastRowStillFollowsItsFirstStep() async throws {
        var session = try await session()
        await session.press(.last, size: Self.size)
        #expect(session.state.selection == 199)
        let firstSelected = Locked<Int?>(nil)
        let key = try #require(Keymap.binding(for: .runPending)?.keys.first)
        await session.handle(key, size: Self.size) { state in
            if state.runningStep != nil { firstSelected.withLock { $0 = $0 ?? state.selection } }
        }
        #expect(firstSelected.value == 0, "the first step's row is above where the selection was")
    }

    @Test func afterTheRunTheLastStepStaysSelectedAndTheKeysMoveFromThere() async throws {
        var session = try await session()
        await session.press(.runPending, size: Self.size)
        await session.handle(.escape, size: Self.size)
        #expect(session.state.selection == 199)
        #expect(row("1.200", on: screen(session.state))?.hasPrefix("▶ ✓ applied") == true, "\(screen(session.state))")
        #expect(screen(session.state).contains("200 of 200"))

        await session.press(.moveUp, size: Self.size)
        #expect(session.state.selection == 198)
        #expect(row("1.199", on: screen(session.state))?.hasPrefix("▶") == true)
        await session.press(.first, size: Self.size)
        #expect(session.state.selection == 0 && session.state.tableTop == 0)
        #expect(row("1.1", on: screen(session.state))?.hasPrefix("▶") == true)
        await session.press(.pageDown, size: Self.size)
        #expect(session.state.selection == Layout(Self.size, for: session.state, unicode: true).visibleRows)
    }

    @Test func aRunThatStopsAtAFailureLeavesTheFailedRowSelectedWithItsError() async throws {
        var session = try await session(failing: 150)
        await session.press(.runPending, size: Self.size)
        await session.handle(.escape, size: Self.size)
        let screen = screen(session.state)
        #expect(row("1.150", on: screen)?.hasPrefix("▶ ✗ failed") == true, "\(screen)")
        #expect(screen.contains("Error: "), "the details show the failed step's error:\n\(screen)")
    }

    @Test func aRowTheFilterHidesLeavesTheSelectionWhereItIs() async throws {
        var session = try await session()
        await session.press(.filter, size: Self.size)
        await session.type("Step 7", size: Self.size)
        let shown = Set(session.state.items.compactMap { $0.migration?.declared })
        #expect(shown == Set(["1.7"] + (70...79).map { "1.\($0)" }))
        let selected = Locked<[String]>([])
        let key = try #require(Keymap.binding(for: .runPending)?.keys.first)
        await session.handle(key, size: Self.size) { state in
            if let declared = state.selectedItem?.migration?.declared { selected.withLock { $0.append(declared) } }
        }
        #expect(selected.value.count == 1 + 400, "the run's start, then each step's start and end")
        #expect(selected.value.allSatisfy(shown.contains), "\(Set(selected.value).subtracting(shown))")
        #expect(selected.value.last == "1.79")
    }
}
