import MigrationCore

/// The steps a run in the terminal UI has finished so far, found by the migration or hook
/// they ran: a row's outcome costs as little on a run's 100,000th step as on its first.
///
/// ```swift
/// var finished = FinishedSteps()
/// finished.append(step)                   // as each step of the run finishes
/// finished.count                          // 1
/// finished.outcome(of: item)              // .succeeded, for the row of that step's migration
/// ```
package struct FinishedSteps: Sendable, ExpressibleByArrayLiteral {
    package private(set) var count = 0
    private var outcomes: [Key: RunStep.Outcome] = [:]

    /// A migration or hook, by its registry id.
    private enum Key: Hashable {
        case migration(Int), hook(Int)
    }

    package init() {}

    package init(arrayLiteral steps: RunStep...) {
        steps.forEach { append($0) }
    }

    package var isEmpty: Bool { count == 0 }

    package mutating func append(_ step: RunStep) {
        count += 1
        switch step.subject {
        case .migration(let migration): outcomes[.migration(migration.id)] = step.outcome
        case .hook(let hook): outcomes[.hook(hook.id)] = step.outcome
        }
    }

    /// How the step of the migration with registry id `id` ended, if it has.
    func outcome(ofMigration id: Int) -> RunStep.Outcome? { outcomes[.migration(id)] }

    /// How the step of the row `item` ended, if it has.
    func outcome(of item: ViewState.Item) -> RunStep.Outcome? {
        switch item {
        case .migration(let entry): outcomes[.migration(entry.migration.id)]
        case .hook(let hookPlan): outcomes[.hook(hookPlan.hook.id)]
        case .unplanned: nil
        }
    }
}
