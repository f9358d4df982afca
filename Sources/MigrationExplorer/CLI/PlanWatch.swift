import Foundation
import MigrationCore

/// `plan --watch`: prints the plan at once, then again each time another process changes the
/// store (``RealStore/changes()``) or the manifest is saved, until SIGINT or SIGTERM (exit 0).
/// As text, each table comes under a line with the time and what changed; with `--json`, each
/// plan is one compact JSON document on a line of its own. What would print the same as the
/// last output prints nothing. A manifest that becomes invalid, or a store that cannot be
/// read, prints its problem and the watch goes on; a lost PostgreSQL connection is said on
/// standard error.
///
/// ```swift
/// try await PlanWatch.start(source: source, json: false)   // returns once standard output is gone
/// ```
struct PlanWatch {
    /// `plan`'s help: what `--watch` does.
    static let helpText = """
        With --watch it prints the plan at once, then again each time what it shows changes: \
        another process changes the store (a run, a reset, a set, the app itself, the file \
        deleted or replaced) or the manifest is saved (in place, or renamed over it). As text, \
        each table comes under a line with the time and what changed; with --json, each plan is \
        one compact JSON document on a line of its own. Nothing is printed while nothing \
        changes. A manifest that becomes invalid, or a store that cannot be read, prints its \
        problem (on stderr; with --json, also as a JSON error document line) and the watch goes \
        on: the next good save prints the plan again. A lost PostgreSQL connection is said on \
        stderr, and changes are followed again once it is back. Ctrl-C (SIGINT) or SIGTERM ends \
        it, with exit status 0. --watch needs a store or --manifest: the built-in demo's \
        sandbox changes only within one command.
        """

    private let request: ExplorerRequest
    private let json: Bool
    private let output = WatchOutput()
    private let style = ConsoleStyle.forStandardOutput()
    private let clock: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter
    }()
    private var explorer: Explorer
    /// The last output (a plan as printed, or a problem), so that what changes nothing prints nothing.
    private var last: String?
    /// The plan printed last, which a store change's line compares with.
    private var lastPlan: MigrationPlan?

    /// Summaries are not cut: a line on standard output may be as long as it needs.
    private static let summaryWidth = 10_000

    /// Watches what `source` names, or refuses when it names nothing that can change.
    /// - Throws: ``CommandFailure``: a usage error without a store or a manifest; what `plan`
    ///   would fail with at start; a store or manifest whose folder cannot be watched; and,
    ///   once neither can be followed any more, that the watch ended.
    static func start(source: some LooksAtOneUpgrade, json: Bool) async throws(CommandFailure) {
        guard source.stores.namesStore || source.app.manifest != nil else {
            let sandbox = EmbeddedApp.current == nil ? "the built-in demo's sandbox" : "the app's sandbox"
            throw CommandFailure(.usage, "--watch follows a store or a manifest, and \(sandbox) changes only within one command: "
                + "give a store (\(source.stores.optionList)) or --manifest FILE")
        }
        var watch = PlanWatch(request: source.request, json: json, explorer: try source.explorer())
        try await watch.follow()
    }

    private init(request: ExplorerRequest, json: Bool, explorer: Explorer) {
        self.request = request
        self.json = json
        self.explorer = explorer
    }

    /// Follows the store and the manifest, printing the plan first and on each change.
    private mutating func follow() async throws(CommandFailure) {
        let changes = WatchedChanges.merging(store: try storeChanges(), manifest: try manifestSaves())
        let watching = "watching \(followed) (Ctrl-C ends)"
        show(try shown()) { _ in watching }
        for await change in changes {
            switch change {
            case .store(.changed(let writer)): reread { [lastPlan] plan in Self.storeSummary(from: lastPlan, to: plan, by: writer) }
            case .store(.interrupted(let reason)): report("changes to the store are not followed for now: \(reason)")
            case .store(.resumed):
                report("changes to the store are followed again")
                reread { [lastPlan] plan in Self.storeSummary(from: lastPlan, to: plan, by: nil) }
            case .manifestSaved: reloadManifest()
            }
            if StandardStreams.hasLostOutput { return }
        }
        throw CommandFailure(.store, "stopped watching: neither the store nor the manifest can be followed any more")
    }

    /// "state.json and notes.json": what the watch follows.
    private var followed: String {
        [explorer.realStore?.displayPath, request.app.manifest].compactMap { $0 }.joined(separator: " and ")
    }

    private func storeChanges() throws(CommandFailure) -> AsyncStream<StoreChange>? {
        do { return try explorer.storeChanges() } catch {
            throw CommandFailure(.store, "\(error)", path: explorer.realStore?.displayPath)
        }
    }

    private func manifestSaves() throws(CommandFailure) -> AsyncStream<FileChange>? {
        guard let path = request.app.manifest else { return nil }
        do { return try FileWatch(files: [URL(fileURLWithPath: path)]).changes() } catch {
            throw CommandFailure(.manifest, error.description, path: path)
        }
    }

    /// The store changed: the explorer over it again (a sandbox over it starts from its new
    /// records), and its plan.
    private mutating func reread(_ summary: (MigrationPlan) -> String) {
        do throws(CommandFailure) {
            explorer = try request.explorer(app: explorer.app, over: explorer.realStore)
            show(try shown(), summary)
        } catch {
            showProblem(error)
        }
    }

    /// The manifest was saved: its new registry, or its problem, the last good one kept.
    private mutating func reloadManifest() {
        do throws(CommandFailure) {
            let app = try output.writing { () throws(CommandFailure) in try ExplorerRequest.app(manifest: request.app.manifest) }
            let summary = ChangeSummary.manifest(from: explorer.app.registry, to: app.registry, width: Self.summaryWidth)
            explorer = try request.explorer(app: app, over: explorer.realStore)
            show(try shown()) { _ in summary }
        } catch {
            showProblem(error)
        }
    }

    /// The explorer's plan as it is now.
    /// - Throws: ``CommandFailure`` when the store cannot be read.
    private func shown() throws(CommandFailure) -> PlanShown {
        do { return try PlanShown(explorer) } catch { throw CommandFailure(error, store: explorer.realStore?.displayPath) }
    }

    /// Prints `plan` under a line with the time and what `summary` says of it, unless it
    /// prints as the last output did.
    private mutating func show(_ plan: PlanShown, _ summary: (MigrationPlan) -> String) {
        let document = json ? JSONReports.line(plan.json) : plan.text(style: style)
        defer { (last, lastPlan) = (document, plan.plan) }
        guard document != last else { return }
        let headline = "\(clock.string(from: Date())) \(summary(plan.plan).drawable)"
        let gap = last == nil ? "" : "\n"
        output.writing {
            plan.reportRunsGoingOn()
            if json {
                StandardStreams.write(bytes: Data((document + "\n").utf8))
            } else {
                StandardStreams.print(gap + headline + "\n" + document)
            }
        }
    }

    /// Says what is wrong now (with `--json`, as an error document line too), once until it
    /// changes; the watch goes on.
    private mutating func showProblem(_ failure: CommandFailure) {
        let document = json ? JSONReports.encode(CommandFailure.Alone(error: .init(failure)), compact: true) : failure.message
        defer { last = document }
        guard document != last else { return }
        let shownPlan = json ? "the last plan printed" : "the plan above"
        output.writing {
            Program.report("\(clock.string(from: Date())) \(failure.message)\n\(shownPlan) is out of date; watching for the next change")
            if json { StandardStreams.write(bytes: Data((document + "\n").utf8)) }
        }
    }

    /// Says `message` on standard error, with the time.
    private func report(_ message: String) {
        output.writing { Program.report("\(clock.string(from: Date())) \(message)") }
    }

    /// "1.1 Move notes applied (by web-1, pid 4121)": the statuses a store change moved.
    private static func storeSummary(from old: MigrationPlan?, to new: MigrationPlan, by writer: String?) -> String {
        guard let old else { return "store changed" }
        return ChangeSummary.store(from: old, to: new, by: writer, width: summaryWidth)
    }
}
