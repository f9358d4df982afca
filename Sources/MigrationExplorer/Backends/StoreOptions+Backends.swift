import ArgumentParser

extension StoreOptions {
    /// Each backend's options, in the order ``StoreOptions`` lists them.
    var backends: [any StoreBackendOptions] {
        Mirror(reflecting: self).children.compactMap { ($0.value as? any ListedBackend)?.options }
    }

    /// "--store, --defaults-plist, --sqlite, --postgres or --simulator".
    var optionList: String {
        let options = backends.map { type(of: $0).option }
        return options.dropLast().joined(separator: ", ") + (options.count > 1 ? " or " : "") + (options.last ?? "")
    }
}

/// A backend's `@OptionGroup` line of ``StoreOptions``.
private protocol ListedBackend {
    var options: any StoreBackendOptions { get }
}

extension OptionGroup: ListedBackend where Value: StoreBackendOptions {
    fileprivate var options: any StoreBackendOptions { wrappedValue }
}
