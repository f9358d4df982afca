import Foundation
import MigrationCore
import Testing
@testable import MigrationExplorer

/// A run that a body cancels by itself (it throws `CancellationError`, unasked) is no success:
/// the command line fails with it and every front end says what waits for the next run.
@Suite("Cancelled runs")
struct CancelledRunTests {
    func explorer() throws -> Explorer {
        var registry = MigrationRegistry(appName: "Recipes")
        registry.migrate(toVersion: "1.0", title: "First") { _ in }
        registry.migrate(toVersion: "1.1", title: "Gives up") { _ async throws in throw CancellationError() }
        registry.migrate(toVersion: "1.2", title: "Later") { _ in }
        return try Explorer(app: ExplorerApp(registry: registry, appVersion: "1.2"), options: ExplorerOptions())
    }

    func cancelledRun() async throws -> (RunReport, Explorer) {
        let explorer = try explorer()
        return (try await explorer.run(), explorer)
    }

    @Test func aBodyThatCancelsItselfFailsTheRunCommand() async throws {
        let (report, _) = try await cancelledRun()
        let failure = try #require(RunCommand.failure(of: report, signal: nil))
        #expect(failure.status == 1)
        #expect(failure.kind == .cancelled)
        #expect(failure.message == "the run was cancelled at version 1.1 \"Gives up\"; 2 migrations wait for the next run")
    }

    @Test func theTextReportSaysWhatWaitsForTheNextRun() async throws {
        let (report, explorer) = try await cancelledRun()
        let lines = TextReports.run(report, explorer: explorer, style: ConsoleStyle(color: false, glyphs: Glyphs(unicode: true)))
        #expect(lines.contains("Cancelled at version 1.1 \"Gives up\"; 2 migrations wait for the next run"), "\(lines)")
    }

    @Test func theTerminalUISaysWhatWaitsForTheNextRun() async throws {
        var session = await Session.opened(explorer: try explorer())
        await session.press(.runPending, size: Size(width: 100, height: 24))
        #expect(session.state.message?.text == "Run cancelled at version 1.1 \"Gives up\"; the 1 step before it stays recorded; 2 migrations wait for the next run")
    }
}
