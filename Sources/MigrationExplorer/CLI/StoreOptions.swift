import ArgumentParser
import MigrationCore

/// Which real store a command works on: at most one of the kinds of store listed here (a JSON
/// state file, an app's preferences plist, its SQLite database, a PostgreSQL database, the
/// preferences plist of an app in a simulator), and its domain.
///
/// Every backend is one `@OptionGroup` line, in the order help lists their options and errors
/// name them: a new backend is a folder under `Backends/` and its line here. (The lines sit in
/// this type itself, not in a group of their own: each level of nested groups multiplies what
/// ArgumentParser's debug build checks at every start.)
struct StoreOptions: ParsableArguments {
    @OptionGroup var jsonFile: JSONFileOptions
    @OptionGroup var defaultsPlist: DefaultsPlistOptions
    @OptionGroup var sqlite: SQLiteOptions
    @OptionGroup var postgres: PostgresOptions
    @OptionGroup var simulator: SimulatorOptions

    @Option(name: .long, help: ArgumentHelp("The domain of the store (default: a JSON file's \"default\", in a plist, MTMigration's keys); one store can hold several.", valueName: "name"))
    var domain: String?

    func validate() throws {
        let named = backends.filter(\.isGiven).map { type(of: $0).option }
        if named.count > 1 {
            throw ValidationError("\(named.joined(separator: " and ")) each name a store; give one of them")
        }
        for backend in backends { try backend.check() }
        if domain?.isEmpty == true { throw ValidationError("--domain: the name is empty; give a name, or leave --domain out for the default") }
        if domain != nil, !namesStore {
            throw ValidationError("--domain names the records of a store; give the store too (\(optionList))")
        }
    }

    /// Whether a store is named.
    var namesStore: Bool { backends.contains(where: \.isGiven) }

    /// Whether the store named is a database, which is never moved aside.
    var namesDatabase: Bool { backends.contains { $0.isGiven && type(of: $0).isDatabase } }

    /// The named path, before `--simulator` is resolved: for error reports.
    var path: String? { backends.lazy.compactMap(\.givenPath).first }

    /// The store the options name, its path checked; `nil` when none is named. `--simulator`
    /// asks `xcrun` for the app's container and warns, on stderr, that the app must be quit.
    /// - Throws: ``CommandFailure`` for a path that cannot hold a store, or a simulator
    ///   container that cannot be found.
    func location() throws(CommandFailure) -> StoreLocation? {
        for backend in backends {
            if let location = try backend.location(domain: domain) { return location }
        }
        return nil
    }
}
