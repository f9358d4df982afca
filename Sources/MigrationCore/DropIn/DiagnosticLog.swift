#if canImport(os)
import os
#else
import Foundation
#endif

/// Where the drop-in API writes a ``MigrationDiagnostic`` besides the migrator's
/// `onDiagnostic` hook, with no logging package to link.
///
/// - On Apple platforms, the unified log (`os.Logger`, subsystem `MigrationCore`), always: it
///   costs nothing until written, and Console or Xcode show it where an app's own warnings are.
/// - Elsewhere, one line on standard error, only for a migrator given no hook: an app that
///   takes the diagnostics itself (a command-line tool with output of its own) keeps its
///   streams, and one that does not still hears of a block that could not run.
enum DiagnosticLog {
    #if canImport(os)
    /// Made on the first diagnostic: a launch with nothing to report makes none.
    private static let log = Logger(subsystem: "MigrationCore", category: "drop-in")
    #endif

    /// Writes `diagnostic` where this platform's diagnostics go; `hooked` says whether the
    /// migrator hands it to an `onDiagnostic` hook as well.
    static func write(_ diagnostic: MigrationDiagnostic, hooked: Bool) {
        #if canImport(os)
        log.warning("\(diagnostic.description)")
        #else
        guard !hooked else { return }
        FileHandle.standardError.write(Data(line(for: diagnostic).utf8))
        #endif
    }

    /// The standard-error line: `MigrationCore: warning: ` and the diagnostic, with every
    /// control or format character (an escape sequence in a version string, a store's error)
    /// written as `\u{…}` so that it cannot drive a terminal.
    ///
    /// ```swift
    /// DiagnosticLog.line(for: MigrationDiagnostic(call: "reset()", problem: "\u{1B}[2J"))
    /// // "MigrationCore: warning: reset(): \u{1B}[2J\n", the escape spelled out
    /// ```
    static func line(for diagnostic: MigrationDiagnostic) -> String {
        let shown = diagnostic.description.unicodeScalars.map { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator:
                "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: String(scalar)
            }
        }
        return "MigrationCore: warning: \(shown.joined())\n"
    }
}
