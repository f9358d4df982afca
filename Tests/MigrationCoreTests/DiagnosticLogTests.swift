import Testing
@testable import MigrationCore

/// The line a diagnostic makes on standard error, where no logging system takes it: text the
/// app gave (a version string) or a store's error cannot drive the terminal it lands on.
@Suite("Diagnostic log line")
struct DiagnosticLogTests {
    @Test func controlAndFormatCharactersAreSpelledOut() {
        let diagnostic = MigrationDiagnostic(call: "migrateToVersion(\"1.0\u{1B}[2J\")", problem: "did not run:\u{202E} bad\nversion")
        let line = DiagnosticLog.line(for: diagnostic)
        #expect(line == "MigrationCore: warning: migrateToVersion(\"1.0\\u{1B}[2J\"): did not run:\\u{202E} bad\\u{A}version\n")
    }
}
