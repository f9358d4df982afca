import ArgumentParser
import Foundation
import MigrationCore

/// `migration-explorer`: the terminal UI by default, and `plan`, `run`, `reset` for scripts.
struct RootCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migration-explorer",
        abstract: "See, simulate, dry-run and run the migrations an app upgrade will execute.",
        discussion: """
        Without a subcommand it opens the interactive explorer (it needs a terminal). Without \
        --manifest it shows the built-in demo, a "Notes" app upgrading from 0.8 to 1.0.

        Exit status: 0 success; 1 a migration failed (earlier ones stay recorded); 2 no \
        terminal for the interactive explorer; 64 bad usage; 65 a manifest, version or store \
        that cannot be used.
        """,
        subcommands: [TUICommand.self, PlanCommand.self, RunCommand.self, ResetCommand.self],
        defaultSubcommand: TUICommand.self
    )
}

struct TUICommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tui", abstract: "Open the interactive explorer (the default).")

    @OptionGroup var source: SourceOptions

    func run() throws {
        try reportingFailures {
            try TerminalApp.launch(explorer: try source.explorer())
        }
    }
}

struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan", abstract: "List every migration with its status, and the hooks that fire.")

    @OptionGroup var source: SourceOptions
    @Flag(help: "Write JSON instead of a table.") var json = false

    func run() throws {
        try reportingFailures {
            let explorer = try source.explorer()
            let plan = try explorer.plan()
            if json {
                print(JSONReports.encode(JSONReports.Plan(plan, app: explorer.app.registry.appName)))
            } else {
                print(TextReports.plan(plan, explorer: explorer, style: .forStandardOutput()).joined(separator: "\n"))
            }
        }
    }
}

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run the pending migrations and the hooks that fire (or, with --dry-run, list them).")

    @OptionGroup var source: SourceOptions
    @Flag(name: .customLong("dry-run"), help: "Run nothing and write nothing: list exactly what a run would execute.")
    var dryRun = false
    @Flag(help: "Write JSON instead of a table.") var json = false

    func run() throws {
        try reportingFailures {
            let explorer = try source.explorer()
            let report = dryRun ? try explorer.dryRun() : try explorer.run()
            if json {
                print(JSONReports.encode(JSONReports.Run(report)))
            } else {
                print(TextReports.run(report, explorer: explorer, style: .forStandardOutput()).joined(separator: "\n"))
            }
            if !report.succeeded { throw ExitCode(ExplorerError.ExitStatus.migrationFailed.rawValue) }
        }
    }
}

struct ResetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset", abstract: "Forget every record in a state file, as MTMigration's reset does.")

    @Option(help: ArgumentHelp("The JSON state file to reset.", valueName: "file")) var store: String

    func run() throws {
        try reportingFailures {
            let file = FileMigrationStore(url: URL(fileURLWithPath: store))
            do { try file.withExclusiveAccess { try file.save(.freshInstall) } } catch {
                throw ExplorerError(String(describing: error), status: .migrationFailed)
            }
            print("Reset \(store): every record forgotten; the next run starts as a fresh install.")
        }
    }
}

/// Runs `body`, turning the errors a person can act on into a message and an exit status.
func reportingFailures(_ body: () throws -> Void) throws {
    do { try body() } catch let error as ExplorerError {
        FileHandle.standardError.write(Data("migration-explorer: \(error)\n".utf8))
        throw ExitCode(error.status.rawValue)
    } catch let error as MigrationStoreError {
        FileHandle.standardError.write(Data("migration-explorer: \(error)\n".utf8))
        throw ExitCode(ExplorerError.ExitStatus.unusableInput.rawValue)
    } catch let error as MigrationStateError {
        FileHandle.standardError.write(Data("migration-explorer: \(error)\n".utf8))
        throw ExitCode(ExplorerError.ExitStatus.unusableInput.rawValue)
    }
}
