import Foundation

/// Walks a manifest's JSON once, building the registry and collecting every problem.
struct ManifestReader {
    let folder: URL
    let commands: ManifestCommand.Runner
    let sql: ManifestSQL.Runner
    private(set) var problems: [ManifestError.Problem] = []
    /// Whether some migration or hook has a `run`.
    private(set) var runsCommands = false
    /// The migrations with `sql`, named for messages.
    private(set) var sqlMigrations: [String] = []
    /// Problems that do not stop the manifest from loading.
    private(set) var warnings: [ManifestError.Problem] = []
    /// The `run` and `timeout` of each migration (by id) and hook (by id) that has them.
    private(set) var written = ManifestCommands()

    init(folder: URL, commands: @escaping ManifestCommand.Runner, sql: @escaping ManifestSQL.Runner) {
        self.folder = folder
        self.commands = commands
        self.sql = sql
    }

    private static let rootFields: Set = ["app", "appVersion", "appBuild", "releases", "migrations", "onUpdate", "onBuildUpdate"]
    private static let migrationFields: Set = ["version", "build", "title", "notes", "whatsNew", "since", "run", "sql", "timeout"]
    private static let hookFields: Set = ["title", "run", "timeout"]

    mutating func read(_ json: Any) -> MigrationManifest? {
        guard let root = object(json, at: "manifest") else { return nil }
        checkFields(root, allowed: Self.rootFields, at: "")
        let appName = string(root["app"], at: "app") ?? "App"
        let appVersion = version(root["appVersion"], at: "appVersion", required: true)
        let appBuild = version(root["appBuild"], at: "appBuild", required: false)
        var registry = MigrationRegistry(appName: appName)
        registry.releases = releases(root["releases"], at: "releases")
        var versionPaths: [String] = []
        for (index, item) in array(root["migrations"], at: "migrations", required: true).enumerated() {
            readMigration(item, at: "migrations[\(index)]", into: &registry, versionPaths: &versionPaths)
        }
        reportDeclarationProblems(of: registry, at: versionPaths)
        for (key, track) in [("onUpdate", MigrationTrack.version), ("onBuildUpdate", .build)] {
            for (index, item) in array(root[key], at: key, required: false).enumerated() {
                readHook(item, at: "\(key)[\(index)]", track: track, into: &registry)
            }
        }
        guard let appVersion else { return nil }
        var manifest = MigrationManifest(registry: registry, appVersion: appVersion.text, appBuild: appBuild?.text, runsCommands: runsCommands)
        manifest.sqlMigrations = sqlMigrations
        manifest.warnings = warnings
        manifest.commands = written
        return manifest
    }

    /// Declares the migration as written; whether its version is one, or a duplicate, is the
    /// core's to say (``reportDeclarationProblems(of:at:)``). `versionPaths` gets the field path
    /// of its version, by migration id.
    private mutating func readMigration(
        _ item: Any, at path: String, into registry: inout MigrationRegistry, versionPaths: inout [String]
    ) {
        guard let fields = object(item, at: path) else { return }
        checkFields(fields, allowed: Self.migrationFields, at: path)
        let title = title(fields["title"], at: "\(path).title")
        let notes = string(fields["notes"], at: "\(path).notes")
        let whatsNew = strings(fields["whatsNew"], at: "\(path).whatsNew")
        for (index, line) in whatsNew.enumerated() where line.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            problem("\(path).whatsNew[\(index)]", "is empty; leave the line out")
        }
        let run = command(fields["run"], at: "\(path).run")
        let statements = sql(fields["sql"], at: "\(path).sql")
        let timeout = timeout(fields["timeout"], at: "\(path).timeout")
        let since = string(fields["since"], at: "\(path).since", example: " such as \"1.0\"")
        let track: MigrationTrack
        switch (fields["version"] != nil, fields["build"] != nil) {
        case (true, true): return problem(path, "has both \"version\" and \"build\"; give exactly one")
        case (false, false): return problem(path, "has neither \"version\" nor \"build\"; give exactly one")
        case (true, false): track = .version
        case (false, true): track = .build
        }
        if since != nil, track == .build { problem("\(path).since", "applies to version migrations only: builds have no releases") }
        let key = track == .version ? "version" : "build"
        guard let declared = string(fields[key], at: "\(path).\(key)", required: true, example: " such as \"1.0\""),
              let title else { return }
        let text = declared.trimmingCharacters(in: .whitespacesAndNewlines)
        var body = makeBody(run, timeout: timeout, identity: (track == .version ? "MIGRATION_VERSION" : "MIGRATION_BUILD", text))
        if let run { written.migrations[registry.migrations.count] = .init(run: run, timeout: timeout) }
        if let statements {
            sqlMigrations.append("\(path) (\(track) \(text) \"\(title)\")")
            written.sql[registry.migrations.count] = statements
            body = sql(ManifestSQL(statements: statements, migration: "\(track) \(text) \"\(title)\""), body)
        }
        versionPaths.append("\(path).\(key)")
        if track == .version {
            registry.migrate(toVersion: text, title: title, notes: notes, whatsNew: whatsNew, since: since, body: body)
        } else {
            registry.migrate(toBuild: text, title: title, notes: notes, whatsNew: whatsNew, body: body)
        }
    }

    /// The registry's invalid and duplicate versions, as the core finds them, at their fields.
    private mutating func reportDeclarationProblems(of registry: MigrationRegistry, at versionPaths: [String]) {
        for found in registry.problems {
            let path = versionPaths[found.migration.id]
            switch found.kind {
            case .invalidVersion(let error): problem(path, String(describing: error))
            case .duplicate(let first): problem(path, "\"\(found.migration.declared)\" duplicates \(versionPaths[first.id])")
            case .invalidSince(let error): problem(path.replacingOccurrences(of: ".version", with: ".since"), String(describing: error))
            case .declaredAfter, .outOfOrder: break
            }
        }
    }

    private mutating func readHook(_ item: Any, at path: String, track: MigrationTrack, into registry: inout MigrationRegistry) {
        guard let fields = object(item, at: path) else { return }
        checkFields(fields, allowed: Self.hookFields, at: path)
        let run = command(fields["run"], at: "\(path).run")
        let timeout = timeout(fields["timeout"], at: "\(path).timeout")
        guard let title = title(fields["title"], at: "\(path).title") else { return }
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

    private mutating func checkFields(_ fields: [String: Any], allowed: Set<String>, at path: String) {
        for key in fields.keys.sorted() where !allowed.contains(key) {
            let known = allowed.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            problem(path.isEmpty ? key : "\(path).\(key)", "is not a known field (known: \(known))")
        }
    }

    private mutating func object(_ value: Any, at path: String) -> [String: Any]? {
        guard let fields = value as? [String: Any] else {
            problem(path, "must be a JSON object, not \(Self.render(value))")
            return nil
        }
        return fields
    }

    private mutating func array(_ value: Any?, at path: String, required: Bool) -> [Any] {
        guard let value else {
            if required { problem(path, "is missing; give a list (it may be empty)") }
            return []
        }
        guard let items = value as? [Any] else {
            problem(path, "must be a list, not \(Self.render(value))")
            return []
        }
        return items
    }

    private mutating func string(_ value: Any?, at path: String, required: Bool = false, example: String = "") -> String? {
        guard let value else {
            if required { problem(path, "is missing") }
            return nil
        }
        guard let text = value as? String, !(value is NSNumber) else {
            problem(path, "must be a string\(example), not \(Self.render(value))")
            return nil
        }
        return text
    }

    /// A `run`: a string with no NUL or other control character but tab and newline (a NUL
    /// would cut the command short where the shell receives it).
    private mutating func command(_ value: Any?, at path: String) -> String? {
        guard let text = string(value, at: path) else { return nil }
        runsCommands = true
        if let (offset, scalar) = text.unicodeScalars.enumerated().first(where: { Self.isForbidden($0.element) }) {
            let code = String(format: "U+%04X", scalar.value)
            problem(path, "contains the control character \(code) at character \(offset); a command may hold tabs and newlines but no other control characters")
            return nil
        }
        return text
    }

    /// A `sql`: one or more statements, not blank.
    private mutating func sql(_ value: Any?, at path: String) -> String? {
        guard let text = string(value, at: path) else { return nil }
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            problem(path, "is empty; give one or more SQL statements")
            return nil
        }
        return text
    }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\t" && scalar != "\n" && (scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value))
    }

    /// A `timeout`: a positive number of seconds.
    private mutating func timeout(_ value: Any?, at path: String) -> Double? {
        guard let value else { return nil }
        guard !(value is String), let number = value as? NSNumber, number.doubleValue > 0, number.doubleValue.isFinite else {
            problem(path, "must be a positive number of seconds, not \(Self.render(value))")
            return nil
        }
        return number.doubleValue
    }

    private mutating func title(_ value: Any?, at path: String) -> String? {
        guard let title = string(value, at: path, required: true) else { return nil }
        guard !title.trimmingCharacters(in: .whitespaces).isEmpty else {
            problem(path, "is empty")
            return nil
        }
        return title
    }

    private mutating func strings(_ value: Any?, at path: String) -> [String] {
        guard let value else { return [] }
        guard let items = value as? [Any], items.allSatisfy({ $0 is String }) else {
            problem(path, "must be a list of strings, not \(Self.render(value))")
            return []
        }
        return items.compactMap { $0 as? String }
    }

    /// `releases`: a list of distinct versions (a duplicate is an error), ascending (in any
    /// other order they are read sorted, with a warning).
    private mutating func releases(_ value: Any?, at path: String) -> [Version] {
        var releases: [Version] = []
        for (index, item) in array(value, at: path, required: false).enumerated() {
            guard let release = version(item, at: "\(path)[\(index)]", required: true) else { continue }
            if let first = releases.firstIndex(of: release) {
                problem("\(path)[\(index)]", "\"\(release.text)\" duplicates \(path)[\(first)] (\"\(releases[first].text)\")")
            }
            releases.append(release)
        }
        let sorted = releases.sorted()
        if sorted != releases {
            warnings.append(.init(field: path, message: "are not in ascending order; read as \(sorted.map(\.text).joined(separator: ", "))"))
        }
        return sorted
    }

    private mutating func version(_ value: Any?, at path: String, required: Bool) -> Version? {
        guard let text = string(value, at: path, required: required, example: " such as \"1.0\"") else { return nil }
        do { return try Version(text) } catch {
            problem(path, String(describing: error))
            return nil
        }
    }

    private static func render(_ value: Any) -> String {
        if let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys]) {
            return String(decoding: data, as: UTF8.self)
        }
        return String(describing: value)
    }
}
