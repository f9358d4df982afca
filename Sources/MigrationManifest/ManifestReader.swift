import Foundation
import MigrationCore

/// Walks a manifest's JSON once, building the registry and collecting every problem. Field
/// paths (`migrations[12].title`) are spelled out only for a problem.
struct ManifestReader {
    let folder: URL
    let commands: ManifestCommand.Runner
    let sql: ManifestSQL.Runner
    private(set) var problems: [ManifestError.Problem] = []
    /// Whether some migration or hook has a `run`.
    private(set) var runsCommands = false
    /// Problems that do not stop the manifest from loading.
    private(set) var warnings: [ManifestError.Problem] = []
    /// The `run` and `timeout` of each migration (by id) and hook (by id) that has them.
    private(set) var written = ManifestCommands()
    /// The migrations with `sql`, named for messages.
    private(set) var sqlMigrations: [String] = []

    init(folder: URL, commands: @escaping ManifestCommand.Runner, sql: @escaping ManifestSQL.Runner) {
        self.folder = folder
        self.commands = commands
        self.sql = sql
    }

    private static let rootFields: Set = ["app", "appVersion", "appBuild", "releases", "migrations", "onUpdate", "onBuildUpdate"]
    private static let migrationFields: Set = ["version", "build", "title", "notes", "whatsNew", "since", "run", "sql", "timeout"]
    private static let hookFields: Set = ["title", "run", "timeout"]

    mutating func read(_ root: ManifestValue) -> MigrationManifest? {
        guard let fields = object(root, at: "manifest") else { return nil }
        checkFields(fields, allowed: Self.rootFields, at: "")
        let appName = string(root["app"], at: "app") ?? "App"
        let appVersion = version(root["appVersion"], at: "appVersion", required: true)
        let appBuild = version(root["appBuild"], at: "appBuild", required: false)
        var registry = MigrationRegistry(appName: appName)
        registry.releases = releases(root["releases"], at: "releases")
        var versionPaths: [VersionPath] = []
        // The migration of each problem from here on, so that the core's (found once every
        // migration is declared) take their place among the reader's.
        let migrations = array(root["migrations"], at: "migrations", required: true)
        let firstMigrationProblem = problems.count
        var migrationOfProblem: [Int] = []
        for (index, item) in migrations.enumerated() {
            readMigration(item, at: index, into: &registry, versionPaths: &versionPaths)
            migrationOfProblem += repeatElement(index, count: problems.count - firstMigrationProblem - migrationOfProblem.count)
        }
        reportDeclarationProblems(of: registry, at: versionPaths, migrationOfProblem: &migrationOfProblem)
        orderByMigration(from: firstMigrationProblem, migrationOfProblem)
        for (key, track) in [("onUpdate", MigrationTrack.version), ("onBuildUpdate", .build)] {
            for (index, item) in array(root[key], at: key, required: false).enumerated() {
                readHook(item, at: "\(key)[\(index)]", track: track, into: &registry)
            }
        }
        guard let appVersion else { return nil }
        var manifest = MigrationManifest(registry: registry, appVersion: appVersion.text, appBuild: appBuild?.text, runsCommands: runsCommands)
        manifest.warnings = warnings
        manifest.commands = written
        manifest.sqlMigrations = sqlMigrations
        return manifest
    }

    /// Where a migration's version is: `migrations[3].build`.
    struct VersionPath: CustomStringConvertible {
        let index: Int
        let track: MigrationTrack
        var description: String { "migrations[\(index)].\(track == .version ? "version" : "build")" }
    }

    /// Declares the migration as written; whether its version is one, or a duplicate, is the
    /// core's to say (``reportDeclarationProblems(of:at:)``). `versionPaths` gets where its
    /// version is, by migration id.
    private mutating func readMigration(
        _ item: ManifestValue, at index: Int, into registry: inout MigrationRegistry, versionPaths: inout [VersionPath]
    ) {
        let path = { "migrations[\(index)]" }
        guard let fields = object(item, at: path()) else { return }
        checkFields(fields, allowed: Self.migrationFields, at: path())
        let title = title(item["title"], at: "\(path()).title")
        let notes = string(item["notes"], at: "\(path()).notes")
        let whatsNew = strings(item["whatsNew"], at: "\(path()).whatsNew")
        for (index, line) in whatsNew.enumerated() where Self.isBlank(line) {
            problem("\(path()).whatsNew[\(index)]", "is empty; leave the line out")
        }
        let run = command(item["run"], at: "\(path()).run", of: Self.naming(item, hook: false))
        let statements = sql(item["sql"], at: "\(path()).sql", of: Self.naming(item, hook: false))
        let timeout = timeout(item["timeout"], at: "\(path()).timeout")
        let since = string(item["since"], at: "\(path()).since", example: " such as \"1.0\"")
        let track: MigrationTrack
        switch (item["version"] != nil, item["build"] != nil) {
        case (true, true): return problem(path(), "has both \"version\" and \"build\"; give exactly one")
        case (false, false): return problem(path(), "has neither \"version\" nor \"build\"; give exactly one")
        case (true, false): track = .version
        case (false, true): track = .build
        }
        if since != nil, track == .build { problem("\(path()).since", "applies to version migrations only: builds have no releases") }
        let versionPath = VersionPath(index: index, track: track)
        guard let declared = string(item[track == .version ? "version" : "build"], at: versionPath.description, required: true,
                                    example: " such as \"1.0\""),
              let title else { return }
        let text = Self.trimmed(declared)
        var body = makeBody(run, timeout: timeout, identity: (track == .version ? "MIGRATION_VERSION" : "MIGRATION_BUILD", text))
        if let run { written.migrations[registry.migrations.count] = .init(run: run, timeout: timeout) }
        if let statements {
            sqlMigrations.append("\(path()) (\(track) \(text.shortenedForMessage) \(title.shortenedForMessage.quotedTitle))")
            written.sql[registry.migrations.count] = statements
            body = sql(ManifestSQL(statements: statements, migration: "\(track) \(text) \(title.quotedTitle)"), body)
        }
        versionPaths.append(versionPath)
        if track == .version {
            registry.migrate(toVersion: text, title: title, notes: notes, whatsNew: whatsNew, since: since, body: body)
        } else {
            registry.migrate(toBuild: text, title: title, notes: notes, whatsNew: whatsNew, body: body)
        }
    }

    /// Whether `text` holds nothing but whitespace and newlines (decided at its first visible
    /// character, which is usually the first).
    private static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { CharacterSet.whitespacesAndNewlines.contains($0) }
    }

    /// The migration or hook `item` describes, as far as its fields are strings, for a problem
    /// with another of its fields: ` (version 1.1 "Pin notes")`, ` (hook "Reset statistics")`.
    private static func naming(_ item: ManifestValue, hook: Bool) -> String {
        var words: [String] = hook ? ["hook"] : []
        for key in ["version", "build"] {
            if case .string(let declared)? = item[key] { words.append("\(key) \(trimmed(declared).shortenedForMessage)") }
        }
        if case .string(let title)? = item["title"] { words.append(title.shortenedForMessage.quotedTitle) }
        return words.isEmpty ? "" : " (\(words.joined(separator: " ")))"
    }

    /// `text` without surrounding whitespace and newlines; itself, uncopied, when it has none.
    private static func trimmed(_ text: String) -> String {
        let visible: ClosedRange<UInt8> = 0x21...0x7E
        if let first = text.utf8.first, let last = text.utf8.last, visible.contains(first), visible.contains(last) { return text }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The registry's invalid and duplicate versions, as the core finds them, at their fields;
    /// `migrationOfProblem` gets the index of the migration of each.
    private mutating func reportDeclarationProblems(
        of registry: MigrationRegistry, at versionPaths: [VersionPath], migrationOfProblem: inout [Int]
    ) {
        for found in registry.problems {
            let versionPath = versionPaths[found.migration.id]
            let path = versionPath.description
            switch found.kind {
            case .invalidVersion(let error): problem(path, String(describing: error))
            case .duplicate(let first): problem(path, "\(found.migration.declared.quotedValue) duplicates \(versionPaths[first.id])")
            case .invalidSince(let error): problem(path.replacingOccurrences(of: ".version", with: ".since"), String(describing: error))
            case .declaredAfter, .outOfOrder: continue
            }
            migrationOfProblem.append(versionPath.index)
        }
    }

    /// Puts the problems from `start` on in the manifest's order: by the migration each is
    /// of (`migrationOfProblem`, one a problem), then in the order they were found.
    private mutating func orderByMigration(from start: Int, _ migrationOfProblem: [Int]) {
        let ordered = zip(migrationOfProblem, problems[start...]).enumerated()
            .sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
        problems.replaceSubrange(start..., with: ordered.map(\.element.1))
    }

    private mutating func readHook(_ item: ManifestValue, at path: String, track: MigrationTrack, into registry: inout MigrationRegistry) {
        guard let fields = object(item, at: path) else { return }
        checkFields(fields, allowed: Self.hookFields, at: path)
        let run = command(item["run"], at: "\(path).run", of: Self.naming(item, hook: true))
        let timeout = timeout(item["timeout"], at: "\(path).timeout")
        guard let title = title(item["title"], at: "\(path).title") else { return }
        let body = makeBody(run, timeout: timeout, identity: nil)
        if let run { written.hooks[registry.hooks.count] = .init(run: run, timeout: timeout) }
        if track == .version { registry.onUpdate(title: title, body: body) } else { registry.onBuildUpdate(title: title, body: body) }
    }

    private func makeBody(_ run: String?, timeout: Double?, identity: (name: String, value: String)?) -> MigrationBody {
        guard let run else { return { _ in } }
        return commands(ManifestCommand(run: run, folder: folder, identity: identity, timeout: timeout))
    }

    // MARK: Typed field readers; each records a problem and returns nil on a bad value.

    private mutating func problem(_ field: String, _ message: String) {
        problems.append(.init(field: field, message: message))
    }

    private mutating func checkFields(_ fields: [(key: String, value: ManifestValue)], allowed: Set<String>, at path: @autoclosure () -> String) {
        guard !fields.allSatisfy({ allowed.contains($0.key) }) else { return }
        for key in Set(fields.map(\.key)).sorted() where !allowed.contains(key) {
            let known = allowed.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            let path = path()
            problem(path.isEmpty ? key.shortenedForMessage : "\(path).\(key.shortenedForMessage)", "is not a known field (known: \(known))")
        }
    }

    private mutating func object(_ value: ManifestValue, at path: @autoclosure () -> String) -> [(key: String, value: ManifestValue)]? {
        guard case .object(let fields) = value else {
            problem(path(), "must be a JSON object, not \(value.quoted)")
            return nil
        }
        return fields
    }

    private mutating func array(_ value: ManifestValue?, at path: String, required: Bool) -> [ManifestValue] {
        guard let value else {
            if required { problem(path, "is missing; give a list (it may be empty)") }
            return []
        }
        guard case .array(let items) = value else {
            problem(path, "must be a list, not \(value.quoted)")
            return []
        }
        return items
    }

    private mutating func string(
        _ value: ManifestValue?, at path: @autoclosure () -> String, required: Bool = false, example: String = ""
    ) -> String? {
        guard let value else {
            if required { problem(path(), "is missing") }
            return nil
        }
        guard case .string(let text) = value else {
            problem(path(), "must be a string\(example), not \(value.quoted)")
            return nil
        }
        return holdsNoNUL(text, at: path()) ? text : nil
    }

    /// Whether `text` holds no NUL, which no store keeps (SQLite cuts the text there, PostgreSQL
    /// refuses it) and a shell never receives; a problem at `path` when it does.
    private mutating func holdsNoNUL(_ text: String, at path: @autoclosure () -> String) -> Bool {
        guard text.utf8.contains(0) else { return true }
        let offset = text.unicodeScalars.prefix { $0 != "\0" }.count
        problem(path(), "contains the control character U+0000 at character \(offset); no text in a manifest may hold it: SQLite cuts the text there and PostgreSQL refuses it")
        return false
    }

    /// A `sql`: one string of one or more statements, not blank; not a list of them. `naming`
    /// names the migration for the problem (made only when there is one).
    private mutating func sql(_ value: ManifestValue?, at path: @autoclosure () -> String, of naming: @autoclosure () -> String) -> String? {
        if case .array? = value, let value {
            problem(path(), "must be one string holding the statements, separated by \";\"\(naming()), not a list: \(value.quoted)")
            return nil
        }
        guard let text = string(value, at: path()) else { return nil }
        guard !Self.isBlank(text) else {
            problem(path(), "is empty\(naming()); give one or more SQL statements, or leave \"sql\" out")
            return nil
        }
        guard Self.holdsAStatement(text) else {
            problem(path(), "holds no statement\(naming()), only comments, \";\" and spaces; give one or more SQL statements, or leave \"sql\" out")
            return nil
        }
        return text
    }

    /// Whether SQL `text` holds anything but comments (`-- …` to the end of the line, `/* … */`),
    /// `;` and white space: SQL that runs nothing would yet be recorded as run. Any other
    /// character, a quote included, starts a statement.
    private static func holdsAStatement(_ text: String) -> Bool {
        var scalars = Substring(text).unicodeScalars[...]
        while let first = scalars.first {
            if scalars.starts(with: "--".unicodeScalars) {
                scalars = scalars.drop { $0 != "\n" }
            } else if scalars.starts(with: "/*".unicodeScalars) {
                let rest = scalars.dropFirst(2)
                guard let end = rest.indices.first(where: { rest[$0...].starts(with: "*/".unicodeScalars) }) else { return false }
                scalars = rest[end...].dropFirst(2)
            } else if first == ";" || CharacterSet.whitespacesAndNewlines.contains(first) {
                scalars = scalars.dropFirst()
            } else {
                return true
            }
        }
        return false
    }

    /// A `run`: a string that is not blank (it would run nothing, yet be recorded as run),
    /// with no NUL or other control character but tab and newline (a NUL would cut the command
    /// short where the shell receives it). `naming` names the migration or hook for the problem.
    private mutating func command(_ value: ManifestValue?, at path: @autoclosure () -> String, of naming: @autoclosure () -> String) -> String? {
        guard let text = string(value, at: path()) else { return nil }
        runsCommands = true
        guard !Self.isBlank(text) else {
            problem(path(), "is empty\(naming()); give a shell command, or leave \"run\" out")
            return nil
        }
        if let (offset, scalar) = text.unicodeScalars.enumerated().first(where: { Self.isForbidden($0.element) }) {
            let code = String(format: "U+%04X", scalar.value)
            problem(path(), "contains the control character \(code) at character \(offset); a command may hold tabs and newlines but no other control characters")
            return nil
        }
        return text
    }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\t" && scalar != "\n" && (scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value))
    }

    /// A `timeout`: a positive number of seconds, up to a year (``ManifestCommand/isUsableTimeout(_:)``).
    private mutating func timeout(_ value: ManifestValue?, at path: @autoclosure () -> String) -> Double? {
        guard let value else { return nil }
        guard case .number(let text) = value, let seconds = Double(text), ManifestCommand.isUsableTimeout(seconds) else {
            problem(path(), "must be \(ManifestCommand.timeoutRule), not \(value.quoted)")
            return nil
        }
        return seconds
    }

    private mutating func title(_ value: ManifestValue?, at path: @autoclosure () -> String) -> String? {
        guard let title = string(value, at: path(), required: true) else { return nil }
        guard title.unicodeScalars.contains(where: { !CharacterSet.whitespaces.contains($0) }) else {
            problem(path(), "is empty")
            return nil
        }
        return title
    }

    private mutating func strings(_ value: ManifestValue?, at path: @autoclosure () -> String) -> [String] {
        guard let value else { return [] }
        var texts: [String] = []
        if case .array(let items) = value {
            for case .string(let text) in items { texts.append(text) }
            if texts.count == items.count {
                var holdNoNUL = true
                for (index, text) in texts.enumerated() { holdNoNUL = holdsNoNUL(text, at: "\(path())[\(index)]") && holdNoNUL }
                return holdNoNUL ? texts : []
            }
        }
        problem(path(), "must be a list of strings, not \(value.quoted)")
        return []
    }

    /// `releases`: a list of distinct versions (a duplicate is an error), ascending (in any
    /// other order they are read sorted, with a warning).
    private mutating func releases(_ value: ManifestValue?, at path: String) -> [Version] {
        var releases: [Version] = []
        /// Where each version is first listed, so that a duplicate is found in one look-up.
        var firstIndex: [Version: (index: Int, text: String)] = [:]
        for (index, item) in array(value, at: path, required: false).enumerated() {
            guard let release = version(item, at: "\(path)[\(index)]", required: true) else { continue }
            if let first = firstIndex[release] {
                problem("\(path)[\(index)]", "\(release.text.quotedValue) duplicates \(path)[\(first.index)] (\(first.text.quotedValue))")
            } else {
                firstIndex[release] = (index, release.text)
            }
            releases.append(release)
        }
        let sorted = releases.sorted()
        if sorted != releases {
            warnings.append(.init(field: path, message: "are not in ascending order; read as \(sorted.map(\.text).joined(separator: ", "))"))
        }
        return sorted
    }

    private mutating func version(_ value: ManifestValue?, at path: String, required: Bool) -> Version? {
        guard let text = string(value, at: path, required: required, example: " such as \"1.0\"") else { return nil }
        do { return try Version(text) } catch {
            problem(path, String(describing: error))
            return nil
        }
    }
}
