import MigrationCore

extension RunReport {
    /// What a cancelled run left for next time, for people: "cancelled at version 2.1 "Index
    /// ingredients"; 2 migrations wait for the next run"; `nil` when it was not cancelled.
    var cancellationSummary: String? {
        guard wasCancelled else { return nil }
        let waiting = "\(deferred.count.counting("migration")) \(deferred.count.agreeing("waits", "wait")) for the next run"
        let at = steps.last { $0.outcome == .cancelled }.map { " at \($0.subject.label)" } ?? ""
        return "cancelled\(at); \(waiting)"
    }
}
