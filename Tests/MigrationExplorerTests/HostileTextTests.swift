import Foundation
import MigrationTestSupport
import Testing
@testable import MigrationExplorer

/// Text the tool did not write (titles, What's New, command output, manifest keys, domain
/// names, store paths) never reaches a terminal or a plain-text report with a sequence a
/// terminal would act on: an escape (CSI, OSC, `ESC c`), a C1 control, a bidirectional
/// override. JSON stays exact: the same characters, escaped.
@Suite("Hostile text")
struct HostileTextTests {
    /// Every sequence an attacker would use: retitle and clear, OSC 52 clipboard write, a full
    /// reset, a C1 CSI, a bell, a right-to-left override and isolate.
    /// The tool's own styles too (green, bold, reset), which a title must not borrow to look
    /// like the tool's "succeeded".
    static let hostile = "\u{1B}[32m\u{1B}[1m\u{1B}[0m\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}]52;c;cm0gLXJmIH4=\u{07}\u{1B}c\u{9B}31m\u{202E}txt.exe\u{2066}x\u{2069}"

    /// What a terminal would act on; `allowingNewlines`: line breaks between report lines.
    static func actsOnTerminal(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            (scalar.value < 0x20 && scalar != "\n") || (0x7F..<0xA0).contains(scalar.value)
                || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
    }

    static func expectHarmless(_ result: Executable.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!actsOnTerminal(result.stdout), "stdout: \(result.stdout.debugDescription)", sourceLocation: sourceLocation)
        #expect(!actsOnTerminal(result.stderr), "stderr: \(result.stderr.debugDescription)", sourceLocation: sourceLocation)
    }

    /// A manifest whose title, What's New and command output all carry ``hostile``.
    func hostileManifest(in folder: URL, extraKey: Bool = false) throws -> URL {
        let escaped = Self.hostile.unicodeScalars.map { $0.value < 0x20 || $0.value >= 0x7F ? String(format: "\\u%04x", $0.value) : String($0) }.joined()
        let printf = #"printf '\\033[32m\\033[0m\\033]0;pwned\\007\\033[2J\\302\\233\\342\\200\\256 done\\n'"#
        let url = folder.appendingPathComponent("manifest.json")
        try """
        { "app": "Notes\(escaped)", "appVersion": "1.0",\(extraKey ? " \"bad\(escaped)key\": 1," : "")
          "migrations": [
            { "version": "0.9", "title": "Title \(escaped)", "whatsNew": ["News \(escaped)"], "notes": "\(escaped)", "run": "\(printf)" }
          ]
        }
        """.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func aCommandsOutputDuringRunReachesTheTerminalWithoutItsEscapes() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try hostileManifest(in: folder)
        let result = try await Executable.run(["run", "--manifest", manifest.path, "--store", folder.appendingPathComponent("state.json").path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("done"))
        Self.expectHarmless(result)
    }

    @Test(arguments: [["plan", "--from", "0.8"], ["run", "--dry-run", "--from", "0.8"], ["whats-new", "--from", "0.8"],
                      ["whats-new", "--markdown", "--from", "0.8"], ["matrix"]])
    func reportsShowHostileTextWithoutItsEscapes(_ command: [String]) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try hostileManifest(in: folder)
        let result = try await Executable.run(command + ["--manifest", manifest.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Notes"))
        Self.expectHarmless(result)
    }

    @Test func anErrorNamingAHostileManifestKeyCarriesNoEscape() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try hostileManifest(in: folder, extraKey: true)
        let result = try await Executable.run(["plan", "--manifest", manifest.path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("bad"))
        Self.expectHarmless(result)
    }

    @Test(arguments: [["reset", "--force"], ["set", "--version", "0.8"]])
    func resetAndSetPrintAHostileDomainNameWithoutItsEscapes(_ command: [String]) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("state\(Self.hostile).json").path
        _ = try await Executable.run(["set", "--store", store, "--version", "1.0", "--domain", "app\(Self.hostile)"])
        let result = try await Executable.run(command + ["--store", store, "--domain", "app\(Self.hostile)"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("app"))
        Self.expectHarmless(result)
    }

    @Test func planJSONKeepsHostileTextExactButEscaped() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try hostileManifest(in: folder)
        let result = try await Executable.run(["plan", "--json", "--manifest", manifest.path, "--from", "0.8"])
        #expect(result.status == 0, "\(result.stderr)")
        Self.expectHarmless(result)
        let migrations = try #require(try result.json()["migrations"] as? [[String: Any]])
        #expect(migrations.first?["title"] as? String == "Title \(Self.hostile)")
    }

    @Test func exportKeepsHostileTextExactButEscaped() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try hostileManifest(in: folder)
        let result = try await Executable.run(["export", "--manifest", manifest.path])
        #expect(result.status == 0, "\(result.stderr)")
        Self.expectHarmless(result)
        let json = try result.json()
        #expect(json["app"] as? String == "Notes\(Self.hostile)")
    }

    @Test func theLockHoldersCommandLineIsNamedWithoutItsEscapes() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("state.json").path
        #expect(try await Executable.run(["set", "--store", store, "--version", "0.8"]).status == 0)
        let ready = folder.appendingPathComponent("locked")
        // Holds the store's lock as `migration-explorer` does, under a hostile command line.
        let holder = SpawnedProcess()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = [
            "-c", "import fcntl,sys,time,pathlib; f=open(sys.argv[1],'a'); fcntl.flock(f, fcntl.LOCK_EX); pathlib.Path(sys.argv[2]).touch(); time.sleep(60)",
            store + ".lock", ready.path, Self.hostile,
        ]
        try holder.run()
        defer { holder.terminate(); holder.waitUntilExit() }
        #expect(await waitUntil(timeout: 30) { FileManager.default.fileExists(atPath: ready.path) }, "the holder never took the lock")
        let result = try await Executable.run(["run", "--store", store, "--no-wait"])
        #expect(result.status == 75, "\(result.stderr)")
        #expect(result.stderr.contains("python3"))
        Self.expectHarmless(result)
    }
}

@Suite("Terminal-safe text")
struct TerminalSafeTextTests {
    @Test func theToolsOwnStylesStayAndEveryOtherSequenceIsShownNotActedOn() {
        let style = ConsoleStyle(color: true, glyphs: Glyphs(unicode: true))
        let line = style.paint("applied", .applied) + " \u{1B}[8mhidden\u{1B}]0;t\u{07} \u{202E}x\n"
        let safe = line.terminalSafe(keepingOwnSequences: true)
        #expect(safe.hasPrefix("\u{1B}[32mapplied\u{1B}[0m "))
        #expect(safe.hasSuffix("\n"))
        #expect(!safe.contains("\u{1B}[8m"))
        #expect(!safe.contains("\u{1B}]"))
        #expect(!safe.unicodeScalars.contains("\u{202E}"))
        #expect(!safe.unicodeScalars.contains("\u{07}"))
    }

    @Test func theLiveLinesOwnEraseStaysButALoneCarriageReturnDoesNot() {
        #expect("\r\u{1B}[2K⠹ [1/3]".terminalSafe(keepingOwnSequences: true) == "\r\u{1B}[2K⠹ [1/3]")
        #expect(!"done\rforged".terminalSafe(keepingOwnSequences: true).contains("\r"))
    }

    @Test func offATerminalNoSequenceStaysNotEvenTheToolsOwn() {
        let style = ConsoleStyle(color: true, glyphs: Glyphs(unicode: true))
        #expect(!(style.paint("applied", .applied) + " ok").terminalSafe(keepingOwnSequences: false).contains("\u{1B}"))
    }

    @Test func plainTextIsLeftAsItIs() {
        let text = "Notes 0.9 → 1.1 ─ store: state.json\n  ●  pending\tTags ✓ 日本語 👩‍👩‍👧\n"
        #expect(text.terminalSafe(keepingOwnSequences: false) == text)
    }

    @Test func drawableTextShowsBidiOverridesInsteadOfApplyingThem() {
        #expect("a\u{202E}b\u{2067}c".drawable == "a\u{FFFD}b\u{FFFD}c")
    }
}

/// A password in a URL given where none was expected (an unexpected argument, a store path,
/// the command's name) is not shown either, in text or JSON.
@Suite("Passwords in any argument")
struct PasswordInAnyArgumentTests {
    @Test(arguments: [
        ["plan", "postgres://ann:s3cret@db/notes"],
        ["postgres://ann:s3cret@db/notes"],
        ["plan", "--store", "postgres://ann:s3cret@db/notes"],
        ["plan", "--manifest", "postgres://ann:s3cret@db/notes"],
        ["plan", "--json", "postgres://ann:s3cret@db/notes"],
        ["plan", "--json", "--store", "postgres://ann:s3cret@db/notes"],
        ["plan", "--store", "postgres://db/notes?password=s3cret"],
    ])
    func aPasswordInAnyArgumentIsNotShown(_ arguments: [String]) async throws {
        let result = try await Executable.run(arguments)
        #expect(result.status != 0)
        #expect(!(result.stdout + result.stderr).contains("s3cret"), "\(result.stdout)\(result.stderr)")
    }

    @Test func aURLsPasswordIsRedactedWhereverAnErrorQuotesIt() {
        #expect("Unexpected argument 'postgres://ann:se/cr@t@db/notes'".redactingPasswords == "Unexpected argument 'postgres://ann:…@db/notes'")
        #expect("postgres://db/notes?sslmode=require&PASSWORD=x&user=a".redactingPasswords == "postgres://db/notes?sslmode=require&PASSWORD=…&user=a")
        #expect("state.json: not found".redactingPasswords == "state.json: not found")
    }
}
