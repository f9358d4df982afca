extension MigrationRegistry {
    /// Every problem with the declarations themselves (a version that is not one, a duplicate,
    /// a version declared after a higher one), exactly as every plan of this registry reports
    /// them: a front end that reads declarations (a manifest, say) asks here instead of
    /// checking on its own.
    ///
    /// ```swift
    /// for problem in registry.problems where problem.severity == .error { print(problem) }
    /// ```
    public var problems: [ValidationProblem] {
        // Declaration problems do not depend on the device or the app version: any plan has them.
        (try? MigrationPlan(registry: self, state: .freshInstall, target: AppTarget(version: .zero)))?.problems ?? []
    }
}

extension Version {
    /// `0`, the lowest version.
    static let zero: Version = {
        guard let zero = try? Version("0") else { preconditionFailure("\"0\" is a version") }
        return zero
    }()
}
