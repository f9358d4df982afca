import ArgumentParser
import MigrationCore

/// `--defaults-plist FILE`: an app's preferences plist as the real store.
struct DefaultsPlistOptions: StoreBackendOptions {
    static let option = "--defaults-plist"

    @Option(name: .customLong("defaults-plist"), help: ArgumentHelp("An app's preferences plist (binary or XML), the real store, under MTMigration's keys.", valueName: "file"))
    var defaultsPlist: String?

    var givenPath: String? { defaultsPlist }

    func check() throws {
        if defaultsPlist?.isEmpty == true { throw ValidationError.emptyPath(Self.option) }
    }

    func location(domain: String?) throws(CommandFailure) -> StoreLocation? {
        guard let defaultsPlist else { return nil }
        let location = StoreLocation.defaultsPlist(defaultsPlist, domain: domain)
        try StorePath.check(location, option: Self.option)
        return location
    }
}
