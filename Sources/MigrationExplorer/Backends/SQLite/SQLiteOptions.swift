import ArgumentParser
import MigrationCore

/// `--sqlite FILE`: an app's SQLite database as the real store, where a manifest's `"sql"`
/// runs. A build without the `SQLite` trait refuses it, saying how to build it in.
struct SQLiteOptions: StoreBackendOptions {
    static let option = "--sqlite"
    static let isDatabase = true

    @Option(name: .long, help: ArgumentHelp("An app's SQLite database to keep the records in, in tables of their own, and to run manifests' \"sql\" in.", valueName: "file", visibility: Self.visibility))
    var sqlite: String?

    /// Help lists the option only where it is built in; elsewhere it is refused, saying how to build it in.
    #if SQLite
    private static let visibility = ArgumentVisibility.default
    #else
    private static let visibility = ArgumentVisibility.hidden
    #endif

    var givenPath: String? { sqlite }

    func check() throws {
        if sqlite?.isEmpty == true { throw ValidationError.emptyPath(Self.option) }
        #if !SQLite
        if sqlite != nil { throw ValidationError.builtWithout("SQLite", option: Self.option) }
        #endif
    }

    func location(domain: String?) throws(CommandFailure) -> StoreLocation? {
        guard let sqlite else { return nil }
        #if SQLite
        let location = StoreLocation.sqlite(sqlite).with(domain: domain)
        try StorePath.check(location, option: Self.option)
        return location
        #else
        throw CommandFailure(.usage, ValidationError.builtWithout("SQLite", option: Self.option).message)
        #endif
    }
}
