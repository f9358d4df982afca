import ArgumentParser
import MigrationCore

/// `--fresh-install`: the command line's spelling of ``FreshInstallPolicy``.
enum FreshInstallOption: String, CaseIterable, ExpressibleByArgument {
    case runAll = "run-all"
    case baseline

    /// The option's help, the same for every command that takes it.
    static let help = ArgumentHelp("On a fresh install: run-all (MTMigration's behaviour) or baseline (record everything up to the app version without running it).", valueName: "policy")

    var policy: FreshInstallPolicy { self == .runAll ? .runAll : .baseline }
}
