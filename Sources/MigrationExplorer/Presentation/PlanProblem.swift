import MigrationCore

/// One thing wrong with a plan, worded for people: the registry's validation problems, a
/// downgrade and a mark read loosely, each with what it is about and what to do.
///
/// ```swift
/// for problem in PlanProblem.all(in: plan) { print(problem.subject, problem.message, problem.hint) }
/// ```
struct PlanProblem: Sendable {
    let severity: ValidationProblem.Severity
    /// The migration it is about, if it is about one.
    let migrationID: Int?
    /// "version 0.7 \"Trim spaces around titles\"" or "the recorded state".
    let subject: String
    let message: String
    let hint: String

    static func all(in plan: MigrationPlan) -> [PlanProblem] {
        recordedState(in: plan) + plan.problems.map(PlanProblem.init)
    }

    /// The problems with the recorded state, not the registry: a downgrade, a mark read loosely.
    static func recordedState(in plan: MigrationPlan) -> [PlanProblem] {
        plan.downgrades.map(PlanProblem.init) + plan.looseMarks.map(PlanProblem.init)
    }

    private init(_ problem: ValidationProblem) {
        severity = problem.severity
        migrationID = problem.migrationID
        subject = problem.migration.label
        message = problem.message
        hint = switch problem.kind {
        case .invalidVersion: "Write the version as dot-separated numbers (1.10.2); until then it never runs."
        case .duplicate: "Give each migration its own version, or merge the two."
        case .declaredAfter: "Declare migrations in ascending version order, so every library runs them alike."
        case .invalidSince: "Write since as the release that first contains it (1.0); until then it counts as its own version."
        // The message already says which version to give it: the hint says why that works.
        case .outOfOrder:
            "A device runs only the migrations above its mark: renumbered above every release, it runs once on each device, "
                + "this one included; a since alone never brings it back."
        }
    }

    private init(_ downgrade: Downgrade) {
        severity = .warning
        migrationID = nil
        subject = "the recorded state"
        message = downgrade.description
        hint = "Nothing runs backwards: data stays as \(downgrade.track) \(downgrade.recorded.text) left it. "
            + "Make sure this release can read it, or upgrade to \(downgrade.recorded.text) or later."
    }

    private init(_ mark: LooseMark) {
        severity = .warning
        migrationID = nil
        subject = "the recorded state"
        message = mark.description
        hint = "It counts as \(mark.countsAs.text) in every plan and run. A run that moves this mark writes a proper "
            + "version; `set` writes one now."
    }
}
