import ArgumentParser
import MigrationCore

/// `--simulator BUNDLE_ID` (and `--device UDID`): the preferences plist of an app in an iOS
/// simulator as the real store, found with `xcrun` (``SimulatorContainer``).
struct SimulatorOptions: StoreBackendOptions {
    static let option = "--simulator"

    @Option(name: .long, help: ArgumentHelp("The preferences plist of this app in a simulator (macOS, Xcode's xcrun); quit the app first.", valueName: "bundle-id"))
    var simulator: String?

    @Option(name: .long, help: ArgumentHelp("With --simulator: the simulator's UDID (default: the booted one).", valueName: "udid"))
    var device: String?

    /// Found only when the command runs.
    var givenPath: String? { nil }
    var isGiven: Bool { simulator != nil }

    func check() throws {
        if device != nil, simulator == nil { throw ValidationError("--device needs --simulator BUNDLE_ID") }
        if let simulator, simulator.isEmpty || simulator.contains("/") || simulator.hasPrefix(".") {
            throw ValidationError("--simulator: \"\(simulator)\" is not a bundle identifier (such as com.example.notes)")
        }
    }

    /// The app's plist in the simulator; warns, on stderr, that the app must be quit.
    func location(domain: String?) throws(CommandFailure) -> StoreLocation? {
        guard let simulator else { return nil }
        let plist = try SimulatorContainer.preferences(of: simulator, device: device ?? "booted")
        Program.report(SimulatorContainer.quitWarning(simulator))
        let location = StoreLocation.defaultsPlist(plist, domain: domain)
        try StorePath.check(location, option: Self.option)
        return location
    }
}
