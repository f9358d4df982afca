import ArgumentParser

/// Which app's migrations, and the version they upgrade to: what every command that reads
/// migrations takes (`export` takes only these).
struct AppOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("A JSON manifest of migrations (default: the app's own registry, or the built-in demo).", valueName: "file"))
    var manifest: String?

    @Option(name: .long, help: ArgumentHelp("Upgrade to this app version (default: the manifest's appVersion).", valueName: "version"))
    var to: VersionArgument?

    @Option(name: .customLong("to-build"), help: ArgumentHelp("Upgrade to this app build (default: the manifest's appBuild).", valueName: "build"))
    var toBuild: VersionArgument?

    func validate() throws {
        if manifest?.isEmpty == true { throw ValidationError("--manifest: the path is empty; name a file") }
    }
}
