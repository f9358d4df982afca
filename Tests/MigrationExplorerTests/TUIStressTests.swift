import Foundation
import MigrationCore
import MigrationTestSupport
import Testing
@testable import MigrationExplorer

/// The session driven by thousands of random keys and resizes: it never crashes, never
/// hangs, and every position stays in range after each event.
@Suite("Terminal UI under random keys")
struct TUIStressTests {
    static let keys: [Key] = [
        .up, .down, .left, .right, .pageUp, .pageDown, .home, .end, .enter, .tab, .escape, .backspace, .delete,
        .control("u"), .control("w"), .control("k"), .control("a"), .control("e"), .control("l"), .character("\u{15}"),
    ] + "rxydftwp?/gGjk0.19( )-ab😀".map(Key.character) + ["\u{301}", "\u{200D}", "🇫"].map(Key.character)

    @Test(arguments: [1, 2] as [UInt64])
    func randomKeysAndResizes(seed: UInt64) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tui-stress-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var session = await Session.opened(explorer: try Explorer(app: DemoApp.make(dataFolder: folder), options: ExplorerOptions()))
        var random = SplitMix(state: seed)
        var size = Size(width: 80, height: 24)
        for step in 0..<2_000 {
            if random.next() % 20 == 0 {
                size = Size(width: 20 + Int(random.next() % 140), height: 5 + Int(random.next() % 45))
                session.resize(to: size)
            } else {
                await session.handle(Self.keys[Int(random.next() % UInt64(Self.keys.count))], size: size)
            }
            if step % 5 == 0 { _ = Render.screen(session.state, size: size, unicode: step % 2 == 0) }
            let state = session.state
            let layout = Layout(size, for: state, unicode: true)
            guard !layout.isTooSmall else { continue }
            #expect(state.items.isEmpty ? state.selection == 0 : state.items.indices.contains(state.selection), "step \(step)")
            #expect(state.tableTop <= state.selection && state.selection < state.tableTop + layout.visibleRows, "step \(step)")
        }
    }
}
