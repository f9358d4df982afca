import ArgumentParser
import MigrationCore

/// Which real store a command works on: at most one of the kinds ``StoreBackends`` lists (a
/// JSON state file, an app's preferences plist, its SQLite database, a PostgreSQL database, the
/// preferences plist of an app in a simulator), and its domain.
struct StoreOptions: ParsableArguments {
    @OptionGroup var backends: StoreBackends

    @Option(name: .long, help: ArgumentHelp("The domain of the store (default: a JSON file's \"default\", in a plist, MTMigration's keys); one store can hold several.", valueName: "name"))
    var domain: String?

    func validate() throws {
        let named = backends.all.filter(\.isGiven).map { type(of: $0).option }
        if named.count > 1 {
            throw ValidationError("\(named.joined(separator: " and ")) each name a store; give one of them")
        }
        for backend in backends.all { try backend.check() }
        if domain?.isEmpty == true { throw ValidationError("--domain: the name is empty; give a name, or leave --domain out for the default") }
        if domain != nil, !namesStore {
            throw ValidationError("--domain names the records of a store; give the store too (\(backends.optionList))")
        }
    }

    /// Whether a store is named.
    var namesStore: Bool { backends.all.contains(where: \.isGiven) }

    /// Whether the store named is a database, which is never moved aside.
    var namesDatabase: Bool { backends.all.contains { $0.isGiven && type(of: $0).isDatabase } }

    /// The named path, before `--simulator` is resolved: for error reports.
    var path: String? { backends.all.lazy.compactMap(\.givenPath).first }

    /// The store the options name, its path checked; `nil` when none is named. `--simulator`
    /// asks `xcrun` for the app's container and warns, on stderr, that the app must be quit.
    /// - Throws: ``CommandFailure`` for a path that cannot hold a store, or a simulator
    ///   container that cannot be found.
    func location() throws(CommandFailure) -> StoreLocation? {
        for backend in backends.all {
            if let location = try backend.location(domain: domain) { return location }
        }
        return nil
    }
}
