import ArgumentParser
import MigrationCore

/// `--store FILE`: a JSON state file as the real store.
struct JSONFileOptions: StoreBackendOptions {
    static let option = "--store"

    @Option(name: .long, help: ArgumentHelp("A JSON state file of migration records, the real store (plan, run and the UI work on a sandbox without a store option).", valueName: "file"))
    var store: String?

    var givenPath: String? { store }

    func check() throws {
        if store?.isEmpty == true { throw ValidationError.emptyPath(Self.option) }
    }

    func location(domain: String?) throws(CommandFailure) -> StoreLocation? {
        guard let store else { return nil }
        let location = StoreLocation.jsonFile(store).with(domain: domain)
        try StorePath.check(location, option: Self.option)
        return location
    }
}
