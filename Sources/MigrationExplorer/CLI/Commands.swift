import ArgumentParser
import Foundation
import MigrationCore

/// `migration-explorer` (or an app's own explorer, under its own name): the terminal UI by
/// default, and `plan`, `run`, `reset`, `matrix`, `whats-new` and `export` for scripts.
struct RootCommand: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        let shows = EmbeddedApp.current.map { app in
            "It shows the migrations of \(app.registry.appName), upgrading to \(app.appVersion)."
        } ?? "Without --manifest it shows the built-in demo, a \"Notes\" app upgrading from 0.8 to 1.0."
        return CommandConfiguration(
            commandName: Program.name,
            abstract: "See, simulate, dry-run and run the migrations an app upgrade will execute.",
            discussion: """
            Without a subcommand it opens the interactive explorer (it needs a terminal). \(shows)

            \(ExitStatus.helpText) \
            With --json, errors too are one JSON document on stdout.
            """,
            subcommands: [TUICommand.self, PlanCommand.self, RunCommand.self, ResetCommand.self, SetCommand.self,
                          MatrixCommand.self, WhatsNewCommand.self, ExportCommand.self],
            defaultSubcommand: TUICommand.self
        )
    }
}

struct TUICommand: AsyncParsableCommand, LooksAtOneUpgrade {
    static let configuration = CommandConfiguration(commandName: "tui", abstract: "Open the interactive explorer (the default).")

    @OptionGroup var app: AppOptions
    @OptionGroup var upgrade: UpgradeOptions
    @OptionGroup var stores: StoreOptions
    @OptionGroup var limits: CommandLimits
    func validate() throws { try validateSource() }

    func run() async throws {
        try await reportingFailures(json: false, store: stores.path) {
            var settings = CommandSettings.current
            limits.apply(to: &settings)
            try await CommandSettings.$current.withValue(settings) {
                let status = try await TerminalApp.launch(explorer: try explorer(), manifestPath: app.manifest)
                if status != ExitStatus.success.rawValue { throw ExitCode(status) }
            }
        }
    }
}

struct PlanCommand: AsyncParsableCommand, LooksAtOneUpgrade {
    static let configuration = CommandConfiguration(
        commandName: "plan", abstract: "List every migration with its status, and the hooks that fire.",
        discussion: PlanWatch.helpText)

    @OptionGroup var app: AppOptions
    @OptionGroup var upgrade: UpgradeOptions
    @OptionGroup var stores: StoreOptions
    @Flag(help: "Write JSON instead of a table.") var json = false
    @Flag(help: "Print the plan again each time the store or the manifest changes, until Ctrl-C.") var watch = false

    func validate() throws { try validateSource() }

    func run() async throws {
        try await reportingFailures(json: json, store: stores.path) {
            if watch { return try await PlanWatch.start(source: self, json: json) }
            let shown = try PlanShown(try explorer())
            shown.reportRunsGoingOn()
            if json {
                JSONReports.writeToStandardOutput(shown.json)
            } else {
                StandardStreams.print(shown.text(style: .forStandardOutput()))
            }
        }
    }
}

extension RootCommand {
    /// `main`, except that it returns the status to exit with, rather than exiting, and that
    /// with `--json` a usage error is a JSON document on stdout too. The one place where what
    /// a command came to (done, a failure, help, a status a command chose) becomes a status.
    static func status(running arguments: [String]?) async -> Int32 {
        let arguments = arguments ?? Array(CommandLine.arguments.dropFirst())
        do {
            if let unknown = unknownCommand(in: arguments) {
                let names = configuration.subcommands.map { $0.configuration.commandName ?? "" }
                let listed = names.map { $0 == TUICommand.configuration.commandName ? "\($0) (the default)" : $0 }.joined(separator: ", ")
                throw CommandFailure(.usage, "\"\(unknown)\" is not a command; the commands are \(listed); see '\(Program.name) --help'")
            }
            var command = try parseAsRoot(arguments)
            if let repeated = repeatedOption(in: arguments) {
                throw ValidationError("\(repeated) is given more than once; give it once")
            }
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            return ExitStatus.success.rawValue
        } catch let failure as CommandFailure {
            Program.report(failure.message)
            if arguments.contains("--json") { StandardStreams.print(JSONReports.encode(CommandFailure.Alone(error: .init(failure)))) }
            return failure.status
        } catch let chosen as ExitCode {
            // A status a command chose, having said what it had to (the terminal UI's 128 + a signal).
            return chosen.rawValue
        } catch {
            let status = exitCode(for: error)
            if arguments.contains("--json"), status.rawValue == ExitStatus.usage.rawValue {
                let failure = CommandFailure(.usage, fullMessage(for: error))
                StandardStreams.print(JSONReports.encode(CommandFailure.Alone(error: .init(failure))))
            }
            // Help on standard output, as the parser gives it; its errors, which quote what was
            // typed, as every error is written: harmless on a terminal, no password shown.
            let message = fullMessage(for: error)
            if status == .success {
                StandardStreams.print(message)
            } else if !message.isEmpty {
                StandardStreams.write(message.redactingPasswords + "\n", to: .standardError)
            }
            return status.rawValue
        }
    }

    /// `bogus` in `migration-explorer bogus`: a first argument that is neither an option nor a
    /// command. Read before parsing: the parser would take it for the default command's, whose
    /// errors (an option it lacks, like `--json`) would hide that the word is not a command.
    static func unknownCommand(in arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        return names.contains(first) ? nil : first
    }

    /// The first option given twice (`--version 1.0 --version 2.0`): no option takes a list,
    /// so a second value would silently replace the first.
    static func repeatedOption(in arguments: [String]) -> String? {
        var seen: Set<Substring> = []
        for argument in arguments.prefix(while: { $0 != "--" }) where argument.hasPrefix("--") {
            let name = argument.split(separator: "=", maxSplits: 1)[0]
            if !seen.insert(name).inserted { return String(name) }
        }
        return nil
    }
}
