import ArgumentParser
import MigrationCore

/// The command-line options of one kind of real store: the option that names it, typed, its
/// checks before anything touches the store, and the ``StoreLocation`` it names.
///
/// ```swift
/// struct JSONFileOptions: StoreBackendOptions {
///     static let option = "--store"
///     @Option var store: String?
///     var givenPath: String? { store }
///     func location(domain: String?) throws(CommandFailure) -> StoreLocation? { store.map { .jsonFile($0) } }
/// }
/// ```
protocol StoreBackendOptions: ParsableArguments {
    /// The option that names the store, as help and errors spell it: "--store".
    static var option: String { get }
    /// Whether the store is a database, which `reset --force` never moves aside.
    static var isDatabase: Bool { get }
    /// Whether the option was given.
    var isGiven: Bool { get }
    /// How errors name the store before it is opened: its path, a server's URL without its
    /// password; `nil` when not given or found only later.
    var givenPath: String? { get }
    /// Checks what was given before anything touches the store (run by ``StoreOptions``'s
    /// `validate`, in the order the backends are listed).
    /// - Throws: `ValidationError` (exit 64) naming the option.
    func check() throws
    /// The store the option names, domain `domain` (`nil`: the store's default), checked to be
    /// usable; `nil` when the option was not given.
    /// - Throws: ``CommandFailure`` for a store that cannot be used.
    func location(domain: String?) throws(CommandFailure) -> StoreLocation?
}

extension StoreBackendOptions {
    static var isDatabase: Bool { false }
    var isGiven: Bool { givenPath != nil }
}

extension ValidationError {
    /// "--store: the path is empty; name a file".
    static func emptyPath(_ option: String) -> ValidationError {
        ValidationError("\(option): the path is empty; name a file")
    }

    /// What a build without a store's trait says to its option: "--postgres: this
    /// migration-explorer was built without PostgreSQL; build it with the PostgreSQL trait (…)".
    /// An app's own explorer is built in the app's package, where only the dependency line
    /// turns the trait on.
    static func builtWithout(_ trait: String, option: String) -> ValidationError {
        let how = EmbeddedApp.current == nil
            ? "build it with the \(trait) trait (`swift build --traits \(trait)`, or traits: [\"\(trait)\"] on the package's dependency line)"
            : "turn on the \(trait) trait of the migration-explorer package on its dependency line (traits: [\"\(trait)\"])"
        return ValidationError("\(option): this \(Program.name) was built without \(trait); \(how)")
    }
}
