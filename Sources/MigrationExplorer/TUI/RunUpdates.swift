import MigrationCore

extension Update {
    /// What a run's update changes on screen: the table follows the run (each row shows its
    /// step as it stands, the selection follows the running step), the message line shows the
    /// running step or command, and once the run ends, its report and the plan as it now stands.
    static func apply(_ update: RunUpdate, _ state: inout ViewState) {
        switch update {
        case .began(let now):
            state.running = []
            state.runningStep = nil
            state.activity = RunActivity(began: now)
        case .started(let subject, let now):
            state.runningStep = RunningStep(label: subject.label, started: now)
            state.activity?.command = nil
            // The table follows the run, the details too.
            state.select(subject)
        case .progress(let subject, let fraction):
            // A finished body's task may still report; only the running one's shows.
            guard state.runningStep?.label == subject.label else { return }
            // A body may report far more often than a whole percent changes.
            if let shown = state.runningStep?.fraction, Int(shown * 100) == Int(fraction * 100) { return }
            state.runningStep?.fraction = fraction
        case .finished(let step):
            state.running?.append(step)
            state.runningStep = nil
            state.activity?.command = nil
        case .commandStarted(let title, let now):
            state.activity?.command = RunActivity.Command(title: title, started: now)
            state.activity?.lastLine = ""
        case .output(let line):
            state.activity?.lastLine = line
        case .ended(let ending):
            let cancelled = state.activity?.cancelled == true
            (state.running, state.runningStep, state.activity) = (nil, nil, nil)
            if let facts = ending.facts { state.show(facts) }
            switch ending.plan {
            case .success(let plan): state.show(plan)
            case .failure(let error): state.showPlanError(error.description)
            }
            switch ending.report {
            case .success(let report):
                state.lastReport = report
                state.overlay = .report(report)
                state.message = summary(of: report, cancelled: cancelled, waiting: state.plan?.pending.count)
            case .failure(let error):
                state.message = .init(text: error.description, role: .failed)
            }
            if let planError = state.planError { state.message = .init(text: "No plan: \(planError)", role: .failed) }
        }
    }

    /// The message line after a run. A cancelled one says where it stopped (that step runs
    /// again next time), what before it stays recorded, and how many migrations the next run has.
    static func summary(of report: RunReport, cancelled: Bool, waiting: Int?) -> ViewState.Message {
        let succeeded = report.steps.count { $0.outcome == .succeeded }
        if cancelled || report.wasCancelled {
            let stopped = report.steps.last { $0.outcome == .cancelled } ?? report.failure
            var text = "Run cancelled " + (stopped.map { "at \($0.subject.label)" } ?? "before anything ran")
            if succeeded > 0 { text += "; the \(succeeded.counting("step")) before it \(succeeded.agreeing("stays", "stay")) recorded" }
            if let waiting { text += "; \(waiting.counting("migration")) \(waiting.agreeing("waits", "wait")) for the next run" }
            return .init(text: text, role: .failed)
        }
        if let failure = report.failure {
            return .init(text: "Run stopped at \(failure.subject.label): \(failure.outcome.errorMessage ?? "")", role: .failed)
        }
        if let saveError = report.saveError { return .init(text: String(describing: saveError), role: .failed) }
        let total = report.steps.reduce(0) { $0 + $1.duration }
        return .init(text: "Ran \(report.steps.count.counting("step")) in \(formatDuration(total))", role: .applied)
    }
}
