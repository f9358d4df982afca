import ArgumentParser
import Foundation
import MigrationCore

/// The whole front end, for an app's own small executable: the terminal UI and the `plan`,
/// `run` and `reset` commands, on the app's real registry.
///
/// ```swift
/// import MigrationCore
/// import MigrationExplorer
///
/// var registry = MigrationRegistry(appName: "Notes")
/// registry.migrate(toVersion: "0.9", title: "Add GUIDs") { context in context.log("done") }
/// registry.onUpdate(title: "Show What's New")
///
/// MigrationExplorer.main(registry: registry, appVersion: "1.0", appBuild: "120")
/// ```
public enum MigrationExplorer {
    /// Parses the command line (`arguments`, default: the process's) and runs; never returns.
    public static func main(
        registry: MigrationRegistry, appVersion: String, appBuild: String? = nil, arguments: [String]? = nil
    ) -> Never {
        main(app: ExplorerApp(registry: registry, appVersion: appVersion, appBuild: appBuild, sandboxRunsForReal: .appCode), arguments: arguments)
    }

    /// The same for an ``ExplorerApp``; `nil` shows the built-in demo.
    ///
    /// Call it from the main thread (an executable's top-level code): it runs the main run
    /// loop, and the command on the main actor, which stays free while a run is awaited, so the
    /// registry's `@MainActor` bodies run there, on the main thread.
    /// - Warning: not from an `async` context: the main run loop must not run inside a job of
    ///   the main actor.
    public static func main(app: ExplorerApp? = nil, arguments: [String]? = nil) -> Never {
        precondition(Thread.isMainThread, "call MigrationExplorer.main from the executable's top-level code, on the main thread")
        StandardStreams.ignoreBrokenPipes()
        Task { @MainActor in
            let status = if let problem = SystemLimits.problem() {
                refusal(problem, json: (arguments ?? CommandLine.arguments).contains("--json"))
            } else {
                await EmbeddedApp.$current.withValue(app) { await RootCommand.status(running: arguments) }
            }
            Program.exit(status)
        }
        while true { _ = RunLoop.main.run(mode: .default, before: .distantFuture) }
    }

    /// Says that the system's limits leave too little to run with (as JSON too with `--json`),
    /// and returns the status for it.
    private static func refusal(_ problem: String, json: Bool) -> Int32 {
        let failure = CommandFailure(.systemLimit, problem)
        Program.report(problem)
        if json { StandardStreams.print(JSONReports.encode(CommandFailure.Alone(error: .init(failure)))) }
        return failure.status
    }
}
