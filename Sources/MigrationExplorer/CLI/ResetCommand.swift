import ArgumentParser
import Foundation
import MigrationCore
import MigrationSQLite

/// `reset`: forgets the four marks of one domain of a state file or SQLite database (or of all
/// of them), as MTMigration's reset does (``MigrationRule/reset(_:at:)``), and says exactly
/// what it forgot.
struct ResetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset", abstract: "Forget the records of a state file's or database's domain, as MTMigration's reset does.",
        discussion: """
        A file with one domain is reset whole; with several, name one with --domain or give \
        --all-domains. A file that is not a migration record is left alone (exit 65) unless \
        --force moves a state file aside to FILE.corrupt-<UTC time>; a database is never moved.
        """)

    @Option(help: ArgumentHelp("The JSON state file to reset.", valueName: "file")) var store: String?
    @Option(help: ArgumentHelp("The SQLite database whose records to reset.", valueName: "file")) var sqlite: String?
    @Option(help: ArgumentHelp("The domain to reset.", valueName: "name")) var domain: String?
    @Flag(name: .customLong("all-domains"), help: "Reset every domain of the file.") var allDomains = false
    @Flag(help: "Move a corrupt state file aside and start afresh.") var force = false
    @Flag(help: "Write JSON instead of text.") var json = false

    func validate() throws {
        if domain != nil, allDomains { throw ValidationError("give --domain or --all-domains, not both") }
        if (store == nil) == (sqlite == nil) { throw ValidationError("give --store FILE or --sqlite FILE") }
        if force, sqlite != nil { throw ValidationError("--force moves a JSON state file aside; a SQLite database is never moved") }
    }

    /// The file named by `--store` or `--sqlite`.
    private var path: String { store ?? sqlite ?? "" }

    func run() throws {
        try reportingFailures(json: json, store: path) {
            try StorePath.check(path, sqlite: sqlite != nil)
            let outcome = try reset()
            print(json ? JSONReports.encode(outcome) : outcome.lines.joined(separator: "\n"))
        }
    }

    /// The store of `domain` in the named file.
    private func open(_ domain: String) -> any MigrationStore {
        if let sqlite { return SQLiteMigrationStore(path: sqlite, domain: domain) }
        return FileMigrationStore(url: URL(fileURLWithPath: path), domain: domain)
    }

    private func domains() throws -> [String] {
        if let sqlite { return try SQLiteMigrationStore(path: sqlite).domains() }
        return try FileMigrationStore(url: URL(fileURLWithPath: path)).domains()
    }

    private func reset() throws -> ResetOutcome {
        let store = path
        let present: [String]
        do { present = try domains() } catch let error as MigrationStoreError {
            guard case .corrupt = error.problem, sqlite == nil else { throw error }
            guard force else {
                throw CommandFailure(.store, "\(error); `reset --force` moves it aside and starts afresh", path: store)
            }
            return ResetOutcome(store: store, movedAside: try moveAside(FileMigrationStore(url: URL(fileURLWithPath: store))), domains: [])
        }
        let chosen: [String]
        if allDomains {
            chosen = present
        } else if let domain {
            chosen = present.contains(domain) ? [domain] : []
        } else if present.count > 1 {
            throw CommandFailure(.usage, "\(store) holds \(present.count) domains (\(present.joined(separator: ", "))); give --domain NAME, or --all-domains", path: store)
        } else {
            chosen = present
        }
        let domains = try chosen.map { name in
            let domainStore = open(name)
            var forgotten: [String] = []
            try domainStore.update { state in
                forgotten = ResetOutcome.forgotten(in: state)
                state = MigrationRule.reset(state)
            }
            return ResetOutcome.Domain(name: name, forgotten: forgotten)
        }
        return ResetOutcome(store: store, movedAside: nil, domains: domains, missingDomain: chosen.isEmpty ? domain : nil)
    }

    /// Renames the corrupt file to `FILE.corrupt-<UTC time>`, under the store's lock.
    private func moveAside(_ file: FileMigrationStore) throws -> String {
        let store = path
        let stamp = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC")!,
                                                formatOptions: [.withYear, .withMonth, .withDay, .withTime, .withTimeZone])
        let destination = "\(store).corrupt-\(stamp)"
        try file.withExclusiveAccess {
            do { try FileManager.default.moveItem(atPath: store, toPath: destination) } catch {
                throw CommandFailure(.store, "\(store): cannot be moved aside to \(destination) (\(error.localizedDescription))", path: store)
            }
        }
        return destination
    }
}

/// What `reset` did, as text or JSON.
struct ResetOutcome: Encodable {
    struct Domain: Encodable {
        let name: String
        /// "last migrated version 1.0", …; empty when no mark was recorded.
        let forgotten: [String]
    }

    let store: String
    /// Where a corrupt file went.
    let movedAside: Nullable<String>
    let domains: [Domain]
    let error: Nullable<String> = Nullable(nil)
    private let missingDomain: String?

    init(store: String, movedAside: String?, domains: [Domain], missingDomain: String? = nil) {
        self.store = store
        self.movedAside = Nullable(movedAside)
        self.domains = domains
        self.missingDomain = missingDomain
    }

    enum CodingKeys: String, CodingKey { case store, movedAside, domains, error }

    static func forgotten(in state: MigrationState) -> [String] {
        let marks = [("last migrated version", state.lastMigratedVersion), ("last migrated build", state.lastMigratedBuild),
                     ("last app version", state.lastAppVersion), ("last app build", state.lastAppBuild)]
        return marks.compactMap { name, value in value.map { "\(name) \($0)" } }
    }

    var lines: [String] {
        if let movedAside = movedAside.value {
            return ["\(store) was not a migration record: moved it aside to \(movedAside); starting afresh, nothing is recorded."]
        }
        if let missingDomain { return ["\(store) has no domain \"\(missingDomain)\": nothing to forget."] }
        if domains.isEmpty { return ["\(store) records nothing: nothing to forget."] }
        return domains.map { domain in
            let what = domain.forgotten.isEmpty ? "nothing was recorded" : "forgot " + domain.forgotten.joined(separator: ", ")
            return "Reset \(store), domain \"\(domain.name)\": \(what); its next run runs every migration up to the app version again (the history is kept)."
        }
    }
}
