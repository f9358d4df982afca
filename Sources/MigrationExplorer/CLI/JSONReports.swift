import Foundation
import MigrationCore

/// The `--json` shapes of `plan` and `run`. Field names are fixed: scripts rely on them.
/// Absent values are written as `null`, never left out.
enum JSONReports {
    /// `plan --json`, written as it goes (see ``JSONWriter``): a plan may hold 100,000
    /// migrations.
    struct Plan {
        let plan: MigrationPlan
        let app: String
        /// Why the simulated device's history is guessed, when it is.
        let historyNote: String?
        /// Why runs cannot write the store, when they cannot.
        let unwritableStore: UnwritableStore?
        /// The runs going on on the store, whose commits so far the plan shows.
        let runsGoingOn: [RunGoingOn]

        init(_ plan: MigrationPlan, app: String, historyNote: String?, unwritableStore: UnwritableStore? = nil, runsGoingOn: [RunGoingOn] = []) {
            self.plan = plan
            self.app = app
            self.historyNote = historyNote
            self.unwritableStore = unwritableStore
            self.runsGoingOn = runsGoingOn
        }

        func write(to writer: inout JSONWriter) {
            writer.object { document in
                document.field("app") { $0.string(app) }
                document.field("from") { $0.string(plan.state.fromVersion) }
                document.field("historyNote") { $0.string(historyNote) }
                document.field("hooks") {
                    $0.array(plan.hooks) { writer, hook in
                        writer.object { fields in
                            fields.field("fires") { $0.bool(hook.fires) }
                            fields.field("kind") { $0.string(hook.hook.kind) }
                            fields.field("title") { $0.string(hook.hook.title) }
                        }
                    }
                }
                document.field("migrations") { $0.array(plan.entries) { Self.write(&$0, $1, in: plan) } }
                document.field("problems") {
                    let problems = PlanProblem.recordedState(in: plan)
                        .map { (severity: $0.severity.rawValue, migration: RegisteredMigration?.none, message: $0.message) }
                        + plan.problems.map { (severity: $0.severity.rawValue, migration: Optional($0.migration), message: $0.message) }
                    $0.array(problems) { writer, problem in
                        writer.object { fields in
                            fields.field("message") { $0.string(problem.message) }
                            fields.field("migration") { writer in
                                if let migration = problem.migration { Identity(migration).write(to: &writer) } else { writer.null() }
                            }
                            fields.field("severity") { $0.string(problem.severity) }
                        }
                    }
                }
                document.field("runsGoingOn") {
                    $0.array(runsGoingOn) { writer, run in
                        writer.object { fields in
                            fields.field("host") { $0.string(run.host) }
                            fields.field("pid") { $0.integer(Int(run.pid)) }
                            fields.field("since") { $0.string(run.since) }
                        }
                    }
                }
                document.field("to") { $0.string(plan.target.version.text) }
                document.field("unwritableStore") { writer in
                    guard let unwritableStore else { return writer.null() }
                    writer.object { fields in
                        fields.field("path") { $0.string(unwritableStore.path) }
                        fields.field("reason") { $0.string(unwritableStore.reason) }
                    }
                }
            }
        }

        /// `{"reason": …, "status": "skipped", "title": …, "version": …}`: one entry; a pending
        /// one held back by a failed one names it: `"heldBackBy": "1.0"`.
        private static func write(_ writer: inout JSONWriter, _ entry: PlanEntry, in plan: MigrationPlan) {
            let migration = entry.migration
            let reason: String? = if case .skipped(let reason) = entry.status { reason.rawValue } else { nil }
            writer.object { fields in
                if migration.track == .build { fields.field("build") { $0.string(migration.declared) } }
                if let failed = plan.heldBack(entry) { fields.field("heldBackBy") { $0.string(failed.declared) } }
                if let held = plan.interruptionHoldBack(of: migration) { fields.field("heldBackByInterruptions") { $0.integer(held.attempts.count) } }
                let interrupted = plan.interruptedAttempts(of: migration)
                if !interrupted.isEmpty { fields.field("interruptedAttempts") { $0.array(interrupted) { InterruptedPhrase.write($1, to: &$0) } } }
                fields.field("reason") { $0.string(reason) }
                fields.field("status") { $0.string(entry.status.word) }
                fields.field("title") { $0.string(migration.title) }
                if migration.track == .version { fields.field("version") { $0.string(migration.declared) } }
            }
        }
    }

    /// `matrix --json`: one row per "from" (`null`: a fresh install), migrations by version.
    struct Matrix: Encodable {
        struct Row: Encodable {
            let from: Nullable<String>
            let runs, outOfOrder, failed: [String]
            let whatsNew: Int
        }

        let to: String
        let rows: [Row]

        init(_ matrix: UpgradeMatrix) {
            to = matrix.target.version.text
            rows = matrix.rows.map { row in
                Row(from: Nullable(row.from?.text), runs: row.runs.map(\.declared), outOfOrder: row.outOfOrder.map(\.declared),
                    failed: row.failed.map(\.declared), whatsNew: row.plan.whatsNew.count)
            }
        }
    }

    /// `whats-new --json`: the pages of the upgrade's What's New, in run order.
    struct WhatsNew: Encodable {
        struct Page: Encodable {
            let migration: Identity
            let title: String
            let lines: [String]
        }

        let app: String
        let from: Nullable<String>
        let to: String
        let pages: [Page]

        init(_ plan: MigrationPlan, app: String) {
            self.app = app
            from = Nullable(plan.state.fromVersion)
            to = plan.target.version.text
            pages = plan.whatsNew.map { Page(migration: Identity($0), title: $0.title, lines: $0.whatsNew) }
        }
    }

    /// A migration named by its track: `{"version": "0.7"}` or `{"build": "95"}`.
    struct Identity: Encodable {
        let track: MigrationTrack
        let declared: String

        init(_ migration: RegisteredMigration) {
            track = migration.track
            declared = migration.declared
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: Step.CodingKeys.self)
            try container.encode(declared, forKey: track == .version ? .version : .build)
        }

        func write(to writer: inout JSONWriter) {
            writer.object { fields in fields.field(track == .version ? "version" : "build") { $0.string(declared) } }
        }
    }

    struct Run: Encodable {
        let ran: [Step]
        let hooks: [Step]
        /// The pending migrations a failure held back: they run after it, once it has succeeded.
        let heldBack: [Identity]
        let state: State
        /// The problems with the recorded state the run started from (a downgrade, a mark read
        /// loosely), as `plan --json` lists them; the registry's own are `plan`'s.
        let problems: [StateProblem]
        let error: Nullable<CommandFailure.Document>
        let unwritableStore: Nullable<UnwritableStore>

        /// `error`: why the command failed, when it did (see ``CommandFailure``);
        /// `unwritableStore`: why a run could not write the store (a dry-run's notice).
        init(_ report: RunReport, error failure: CommandFailure?, unwritableStore: UnwritableStore? = nil) {
            (ran, hooks) = Step.split(report.steps)
            heldBack = report.heldBack.map(Identity.init)
            state = State(report.state)
            problems = PlanProblem.recordedState(in: report.plan).map(StateProblem.init)
            error = Nullable(failure.map(CommandFailure.Document.init))
            self.unwritableStore = Nullable(unwritableStore)
        }
    }

    /// `{"path": "state.json", "reason": "permission denied: …"}`: the store a run would stop
    /// on before running anything, and why; `plan` and `run --dry-run` say it up front.
    struct UnwritableStore: Encodable {
        let path: String
        let reason: String

        init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }

        /// The explorer's, when runs cannot write its store.
        init?(_ explorer: Explorer) {
            guard let problem = explorer.storeWriteProblem(), let store = explorer.realStore else { return nil }
            self.init(path: store.displayPath, reason: problem.reason)
        }
    }

    /// `{"host": "web-3", "pid": 4121, "since": "2026-11-25T18:02:11Z"}`: a process running a
    /// registry run on a PostgreSQL store, as `plan --json` names it.
    struct RunGoingOn: Encodable {
        let host: String
        let pid: Int32
        /// When it took the store's run lock, in ISO 8601, UTC.
        let since: String

        init(host: String, pid: Int32, since: Date) {
            self.host = host
            self.pid = pid
            self.since = since.formatted(.iso8601)
        }

        init(_ run: OngoingRun) {
            self.init(host: run.host, pid: run.pid, since: run.since)
        }
    }

    /// `{"message": …, "migration": null, "severity": "warning"}`: a problem with the recorded
    /// state, shaped as `plan --json`'s problems.
    struct StateProblem: Encodable {
        let message: String
        let migration: Nullable<Identity>
        let severity: String

        init(_ problem: PlanProblem) {
            message = problem.message
            migration = Nullable(nil)
            severity = problem.severity.rawValue
        }
    }

    /// `run --json` left at a second signal before the running step stopped: the steps that
    /// finished until then (each recorded as it finished) and why it stopped. No `state`: the
    /// run still held the store.
    struct Interrupted: Encodable {
        let ran: [Step]
        let hooks: [Step]
        let error: CommandFailure.Document

        init(finished steps: [RunStep], error failure: CommandFailure) {
            (ran, hooks) = Step.split(steps)
            error = CommandFailure.Document(failure)
        }
    }

    struct Step: Encodable {
        let identity: (key: CodingKeys, value: String)
        let title: String
        let result: String
        let durationMs: Double
        let output: String
        let error: String?
        /// A migration held back by its interruptions: those attempts.
        let interruptedAttempts: [InterruptedPhrase.Attempt]?

        /// `steps` as run documents list them: the migrations' under `ran`, the hooks' under `hooks`.
        static func split(_ steps: [RunStep]) -> (ran: [Step], hooks: [Step]) {
            var ran: [Step] = [], hooks: [Step] = []
            for step in steps {
                switch step.subject {
                case .migration(let migration): ran.append(Step(step, migration: migration))
                case .hook(let hook): hooks.append(Step(step, hook: hook))
                }
            }
            return (ran, hooks)
        }

        init(_ step: RunStep, migration: RegisteredMigration) {
            self.init(step, identity: (migration.track == .version ? .version : .build, migration.declared))
        }

        init(_ step: RunStep, hook: UpdateHook) {
            self.init(step, identity: (.kind, hook.kind))
        }

        private init(_ step: RunStep, identity: (key: CodingKeys, value: String)) {
            self.identity = identity
            title = step.subject.title
            result = step.outcome.word
            durationMs = (step.duration * 1_000_000).rounded() / 1000
            output = step.log.joined(separator: "\n")
            error = step.outcome.errorMessage
            interruptedAttempts = if case .heldBack(let held) = step.outcome { held.attempts.map(InterruptedPhrase.Attempt.init) } else { nil }
        }

        enum CodingKeys: String, CodingKey { case version, build, kind, title, result, durationMs, output, error, interruptedAttempts }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(identity.value, forKey: identity.key)
            try container.encode(title, forKey: .title)
            try container.encode(result, forKey: .result)
            try container.encode(durationMs, forKey: .durationMs)
            try container.encode(output, forKey: .output)
            try container.encode(Nullable(error), forKey: .error)
            try container.encodeIfPresent(interruptedAttempts, forKey: .interruptedAttempts)
        }
    }

    struct State: Encodable {
        let lastMigratedVersion, lastMigratedBuild, lastAppVersion, lastAppBuild: Nullable<String>

        init(_ state: MigrationState) {
            lastMigratedVersion = Nullable(state.lastMigratedVersion)
            lastMigratedBuild = Nullable(state.lastMigratedBuild)
            lastAppVersion = Nullable(state.lastAppVersion)
            lastAppBuild = Nullable(state.lastAppBuild)
        }
    }

    /// Writes `plan` to standard output, and a new line.
    static func writeToStandardOutput(_ plan: Plan) {
        var writer = JSONWriter { StandardStreams.write(bytes: $0) }
        plan.write(to: &writer)
        writer.finish()
        StandardStreams.write("\n")
    }

    /// `plan` as one line of compact JSON (no new line at its end), for `plan --watch --json`.
    static func line(_ plan: Plan) -> String {
        var bytes: [UInt8] = []
        var writer = JSONWriter(compact: true) { bytes += $0 }
        plan.write(to: &writer)
        writer.finish()
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Pretty-printed JSON with stable key order, an empty list or object written `[]` or `{}`,
    /// harmless on a terminal; `compact`: on one line, with no space.
    static func encode(_ value: some Encodable, compact: Bool = false) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = compact ? [.sortedKeys, .withoutEscapingSlashes] : [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // The shapes above hold only strings, numbers, booleans and arrays: encoding cannot fail.
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        // `JSONEncoder` puts a blank line between empty brackets. A string holds no raw new
        // line, so brackets around blank lines are always an empty container.
        return String(decoding: data, as: UTF8.self)
            .replacing(#/\[\n\n *\]/#, with: "[]")
            .replacing(#/\{\n\n *\}/#, with: "{}")
            .jsonEscapingTerminalControls
    }
}
