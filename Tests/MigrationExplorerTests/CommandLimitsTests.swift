import Testing
@testable import MigrationExplorer

/// `--timeout` and `--kill-after` reach the settings every manifest command of a run reads,
/// in `run` and in the terminal UI alike; without them, no limit and a 2 s grace.
@Suite struct CommandLimitsTests {
    @Test func killAfterAndTimeoutAreWhatACommandGetsInRunAndTheTerminalUI() throws {
        let given = ["--kill-after", "5", "--timeout", "30"]
        for limits in [try RunCommand.parse(given).limits, try TUICommand.parse(given).limits] {
            var settings = CommandSettings()
            limits.apply(to: &settings)
            #expect(settings.grace == .seconds(5))
            #expect(settings.timeout == .seconds(30))
        }
    }

    @Test func withoutThemACommandHasNoLimitAndTwoSecondsOfGrace() throws {
        var settings = CommandSettings()
        try CommandLimits.parse([]).apply(to: &settings)
        #expect(settings.grace == .seconds(2))
        #expect(settings.timeout == nil)
    }

    @Test func quittingTheTerminalUIWaitsLongerThanALongGrace() {
        var settings = CommandSettings()
        #expect(TerminalApp.quitWait == .seconds(5))
        settings.grace = .seconds(30)
        CommandSettings.$current.withValue(settings) {
            #expect(TerminalApp.quitWait == .seconds(31))
        }
    }
}
