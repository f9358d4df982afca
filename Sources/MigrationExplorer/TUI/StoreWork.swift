import Foundation
import MigrationCore

/// The store's side of a session's effects: each is carried out on a copy of the explorer
/// and answered with all the screen then shows of it (``StoreAnswer``), one after another, in
/// the order they were asked for, on a serial queue of the session's own (as GRDB runs a
/// connection's work). The store's calls block (a database answers after network round
/// trips): on the concurrency pool's few threads they would hold up every task, the loop's
/// included; and a thread of its own for each would let two answers come back in either order.
///
/// ```swift
/// session.storeWork.start(.reset, on: explorer) { answer in mailbox.post(.event(.store(answer))) }
/// ```
package final class StoreWork: Sendable {
    /// Where the session's effects are carried out, in turn.
    private let queue = DispatchQueue(label: "terminal UI store work")

    package init() {}

    /// Carries out `effect` after those asked for before it, and hands the store's answer to
    /// `answered` on the queue.
    func start(_ effect: Effect, on explorer: Explorer, answered: @escaping @Sendable (StoreAnswer) -> Void) {
        queue.async { answered(Self.answer(to: effect, on: explorer)) }
    }

    /// Carries out `effect` after those asked for before it and returns the store's answer.
    func perform(_ effect: Effect, on explorer: Explorer) async -> StoreAnswer {
        await withCheckedContinuation { continuation in
            start(effect, on: explorer) { continuation.resume(returning: $0) }
        }
    }

    /// Carries out `effect`, waiting for the store as long as it takes.
    private static func answer(to effect: Effect, on explorer: Explorer) -> StoreAnswer {
        var explorer = explorer
        var answer = StoreAnswer(effect: effect, explorer: explorer)
        do {
            switch effect {
            case .run, .cancelRun, .abandonRun, .quit, .redraw:
                break
            case .read, .follow:
                answer.plan = plan(explorer)
            case .dryRun:
                let report = try explorer.dryRun()
                answer.overlay = .report(report)
                answer.message = .init(text: "Dry run: \(report.steps.count.counting("step")) would run; nothing was run or written", role: .pending)
            case .matrix:
                let matrix = try explorer.matrix()
                answer.overlay = .matrix(matrix, selection: MatrixView.row(of: explorer.from, in: matrix))
            case .reset:
                let busy = runGoingOn(explorer, instead: "Not reset")
                try explorer.reset(onWait: { throw busy })
                answer.changed(plan: plan(explorer))
                answer.message = .init(text: explorer.isSandbox
                    ? "Reset: the sandbox is back to \(explorer.deviceDescription)"
                    : "Reset: the four marks in \(explorer.storeDescription) forgotten; every migration up to the app runs again", role: .accent)
            case .setFrom(let version, let build):
                try explorer.setFrom(version, build: build)
                answer.changed(plan: plan(explorer))
                answer.message = fromMessage(explorer, plan: answer.plan)
            case .setFromRelease(let release):
                try explorer.setFrom(release: release)
                answer.changed(plan: plan(explorer))
                answer.message = fromMessage(explorer, plan: answer.plan)
            case .writeFrom:
                let device = explorer.deviceDescription
                let busy = runGoingOn(explorer, instead: "Not written")
                try explorer.writeFromToRealStore(onWait: { throw busy })
                answer.changed(plan: plan(explorer))
                answer.message = .init(text: "Wrote \(device) to \(explorer.storeDescription): the app's next launch replays this upgrade", role: .accent)
            case .setTo(let version, let build):
                explorer.setTarget(version: version, build: build)
                answer.plan = plan(explorer)
                answer.message = .init(text: "Upgrading to \(version.text)" + (explorer.target.build.map { " (build \($0.text))" } ?? ""), role: .accent)
            case .backToRealStore:
                let path = explorer.realStore?.displayPath
                try explorer.playRealStore()
                answer.changed(plan: plan(explorer))
                answer.message = .init(text: "Back to the real store \(path ?? explorer.storeDescription), as it records: \(explorer.deviceDescription)", role: .accent)
            }
        } catch {
            answer.message = .init(text: String(describing: error), role: .failed)
        }
        answer.explorer = explorer
        answer.facts = StoreFacts(reading: explorer)
        if effect == .read { answer.message = openingMessage(explorer, unwritable: answer.facts.isSandbox ? nil : answer.facts.unwritableRealStore) }
        return answer
    }

    private static func plan(_ explorer: Explorer) -> Result<MigrationPlan, RunFailure> {
        Result { try explorer.plan() }.mapError(RunFailure.init)
    }

    /// What the first frame with the store's answer says: a guessed history, a store that
    /// cannot be written, a run going on (another process's).
    private static func openingMessage(_ explorer: Explorer, unwritable: String?) -> ViewState.Message? {
        var message: ViewState.Message?
        if let note = explorer.historyNote, !explorer.app.registry.releases.isEmpty { message = .init(text: note, role: .warning) }
        if let unwritable { message = .init(text: "\(unwritable): run and reset are off; plan and dry-run work", role: .warning) }
        if let run = explorer.runsGoingOn().first {
            message = .init(text: "A run is going on (\(run)): the plan shows what it has committed so far", role: .warning)
        }
        return message
    }

    /// Why a change to the real store was not made: a run on it (another process's) is going
    /// on. The session does not freeze waiting for it; the change can be made once it ends.
    private static func runGoingOn(_ explorer: Explorer, instead: String) -> ExplorerError {
        let store = explorer.realStore?.displayPath ?? explorer.storeDescription
        return .runGoingOn(refused: instead, store: store)
    }

    /// After a new "from": which device the plan is of.
    private static func fromMessage(_ explorer: Explorer, plan: Result<MigrationPlan, RunFailure>?) -> ViewState.Message {
        if case .success(let plan)? = plan, let downgrade = plan.downgrades.first {
            return .init(text: "Simulating \(explorer.deviceDescription): \(downgrade); p lists the problems", role: .warning)
        }
        var text = "Simulating \(explorer.deviceDescription)"
        if explorer.from != nil, explorer.fromBuild == nil, explorer.target.build != nil {
            text += "; give its build as 0.8 (90)"
        }
        if let real = explorer.realStore { text += "; \(real.name) is not touched" }
        if let note = explorer.historyNote, !explorer.app.registry.releases.isEmpty { text += "; \(note)" }
        return .init(text: text, role: .accent)
    }
}

extension StoreAnswer {
    /// The store changed: its new plan shows, and the last run's report goes.
    fileprivate mutating func changed(plan: Result<MigrationPlan, RunFailure>) {
        self.plan = plan
        forgetsLastReport = true
    }
}
