import ArgumentParser
import Foundation
import MigrationCore

/// `reset`: forgets the four marks of one domain of a state file (or of all of them), or of a
/// preferences plist, as MTMigration's reset does (``MigrationRule/reset(_:at:)``), and says
/// exactly what it forgot.
struct ResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset", abstract: "Forget the records of a store's domain, as MTMigration's reset does.",
        discussion: """
        A store with one domain is reset whole; with several, name one with --domain or give \
        --all-domains. A run on the same store is waited for (saying so on stderr), so the reset \
        lands before the run starts or after it ends, never between two of its steps; --wait SECONDS \
        or --no-wait bound that wait (exit \(ExitStatus.storeBusy.rawValue)). A \
        preferences plist's MTMigration keys have no domain name: without \
        --domain they are the ones reset when they record anything (the plist's named domains \
        are listed, untouched). A store that is not a migration record is left alone (exit \(ExitStatus.unusableInput.rawValue)) \
        unless --force moves it aside to FILE.corrupt-<UTC time>; a SQLite database is never \
        moved.
        """)

    @OptionGroup var stores: StoreOptions
    @Flag(name: .customLong("all-domains"), help: "Reset every domain of the store.") var allDomains = false
    @Flag(help: "Move a corrupt store aside and start afresh.") var force = false
    @Flag(help: "Write JSON instead of text.") var json = false
    @OptionGroup var waiting: WaitOptions

    func validate() throws {
        guard stores.namesStore else { throw ValidationError("name the store to reset: \(stores.optionList)") }
        if stores.domain != nil, allDomains { throw ValidationError("give --domain or --all-domains, not both") }
        if force, stores.namesDatabase { throw ValidationError("--force moves a corrupt file aside; a database is never moved") }
    }

    func run() async throws {
        try await reportingFailures(json: json, store: stores.path) {
            guard let location = try stores.location() else { return }
            let outcome = try reset(location)
            StandardStreams.print(json ? JSONReports.encode(outcome) : outcome.lines.joined(separator: "\n"))
        }
    }

    private func reset(_ location: StoreLocation) throws -> ResetOutcome {
        let store = location.open(waiting: waiting.storeWaiting())
        let present: [String?]
        do { present = try store.recordedDomains() } catch let error as MigrationStoreError {
            guard case .corrupt = error.problem else { throw error }
            guard force else {
                throw CommandFailure(.store, "\(error); `reset --force` moves it aside and starts afresh", path: location.path)
            }
            return ResetOutcome(store: location.path, movedAside: try moveAside(store, path: location.path), domains: [])
        }
        // Nothing recorded: nothing to forget, so nothing to write or to wait for.
        guard !present.isEmpty else { return try reset([], of: location) }
        return try store.withoutRuns(onWait: { if !waiting.noWait { Program.reportWaitingForRun(on: location.path, before: "resetting it") } }) {
            try reset(try store.recordedDomains(), of: location)
        }
    }

    /// Resets the chosen domains of the `present` ones, while no run on the store goes on.
    private func reset(_ present: [String?], of location: StoreLocation) throws -> ResetOutcome {
        let chosen: [String?]
        var untouched: [String] = []
        if allDomains {
            chosen = present
        } else if let domain = stores.domain {
            chosen = present.contains(domain) ? [domain] : []
        } else if present.contains(nil) {
            // A plist's MTMigration keys: what no --domain names in every command.
            (chosen, untouched) = ([nil], present.compactMap { $0 })
        } else if present.count > 1 {
            let names = present.compactMap { $0 }
            throw CommandFailure(.usage, "\(location.path) holds \(names.count) domains (\(names.joined(separator: ", "))); give --domain NAME, or --all-domains", path: location.path)
        } else {
            chosen = present
        }
        let domains = try chosen.map { name in
            var forgotten: [String] = []
            try location.with(domain: name).open(waiting: waiting.storeWaiting()).update { state in
                forgotten = state.markPhrases
                state = MigrationRule.reset(state)
            }
            return ResetOutcome.Domain(name: Nullable(name), forgotten: forgotten)
        }
        return ResetOutcome(store: location.path, movedAside: nil, domains: domains, missingDomain: chosen.isEmpty ? stores.domain : nil,
                            untouched: untouched)
    }

    /// Renames the corrupt file to `FILE.corrupt-<UTC time>`, under the store's lock.
    private func moveAside(_ store: any MigrationStore, path: String) throws -> String {
        let stamp = ISO8601DateFormatter.string(from: Date(), timeZone: .gmt,
                                                formatOptions: [.withYear, .withMonth, .withDay, .withTime, .withTimeZone])
        let destination = "\(path).corrupt-\(stamp)"
        try store.withExclusiveAccess {
            do { try FileManager.default.moveItem(atPath: path, toPath: destination) } catch {
                throw CommandFailure(.store, "\(path): cannot be moved aside to \(destination) (\(error.localizedDescription))", path: path)
            }
        }
        return destination
    }
}

/// What `reset` did, as text or JSON.
struct ResetOutcome: Encodable {
    struct Domain: Encodable {
        /// `nil` (JSON `null`): a preferences plist's MTMigration keys, which no domain name
        /// names in any command.
        let name: Nullable<String>
        /// "last migrated version 1.0", …; empty when no mark was recorded.
        let forgotten: [String]
    }

    let store: String
    /// Where a corrupt file went.
    let movedAside: Nullable<String>
    let domains: [Domain]
    let error: Nullable<String> = Nullable(nil)
    private let missingDomain: String?
    /// A plist's named domains, left alone when its MTMigration keys were reset.
    private let untouched: [String]

    init(store: String, movedAside: String?, domains: [Domain], missingDomain: String? = nil, untouched: [String] = []) {
        self.store = store
        self.movedAside = Nullable(movedAside)
        self.domains = domains
        self.missingDomain = missingDomain
        self.untouched = untouched
    }

    enum CodingKeys: String, CodingKey { case store, movedAside, domains, error }

    var lines: [String] {
        if let movedAside = movedAside.value {
            return ["\(store) was not a migration record: moved it aside to \(movedAside); starting afresh, nothing is recorded."]
        }
        if let missingDomain { return ["\(store) has no domain \"\(missingDomain)\": nothing to forget."] }
        if domains.isEmpty { return ["\(store) records nothing: nothing to forget."] }
        let reset = domains.map { domain in
            let what = domain.forgotten.isEmpty ? "nothing was recorded" : "forgot " + domain.forgotten.joined(separator: ", ")
            let which = domain.name.value.map { "domain \"\($0)\"" } ?? StoreLocation.mtMigrationKeys
            return "Reset \(store), \(which): \(what); its next run runs every migration up to the app version again (the history is kept)."
        }
        guard !untouched.isEmpty else { return reset }
        return reset + ["Left alone: \(untouched.count.agreeing("domain")) \(untouched.map { "\"\($0)\"" }.joined(separator: ", ")); give --domain NAME or --all-domains to reset \(untouched.count.agreeing("it", "them"))."]
    }
}
