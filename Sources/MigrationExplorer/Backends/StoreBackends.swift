import ArgumentParser

/// Every kind of real store the command line offers, one line each, in the order help lists
/// their options and errors name them. A new backend is a folder under `Backends/` and its line
/// here.
struct StoreBackends: ParsableArguments {
    @OptionGroup var jsonFile: JSONFileOptions
    @OptionGroup var defaultsPlist: DefaultsPlistOptions
    @OptionGroup var sqlite: SQLiteOptions
    @OptionGroup var postgres: PostgresOptions
    @OptionGroup var simulator: SimulatorOptions

    /// Each backend's options, as listed above.
    var all: [any StoreBackendOptions] {
        Mirror(reflecting: self).children.compactMap { ($0.value as? any ListedBackend)?.options }
    }

    /// "--store, --defaults-plist, --sqlite, --postgres or --simulator".
    var optionList: String {
        let options = all.map { type(of: $0).option }
        return options.dropLast().joined(separator: ", ") + (options.count > 1 ? " or " : "") + (options.last ?? "")
    }
}

/// An `@OptionGroup` line of ``StoreBackends``.
private protocol ListedBackend {
    var options: any StoreBackendOptions { get }
}

extension OptionGroup: ListedBackend where Value: StoreBackendOptions {
    fileprivate var options: any StoreBackendOptions { wrappedValue }
}
