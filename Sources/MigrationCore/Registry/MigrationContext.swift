/// What a migration body is given: where the upgrade goes, a log that front ends show, and a
/// way to report how far it got.
///
/// ```swift
/// registry.migrate(toVersion: "0.9", title: "Add GUIDs") { context in
///     let count = try addGUIDs()
///     context.log("added \(count) GUIDs")
/// }
/// ```
public final class MigrationContext: Sendable {
    /// Where the device was: for a migration, the recorded high-water mark on its track; for
    /// an update hook, the recorded app version (or build). `nil` on a fresh install.
    public let from: String?
    /// The app version (or build) the device had when this upgrade started: the recorded app
    /// version before the run, whichever migration runs now. `nil` on a fresh install. For a
    /// device at 0.8 upgrading to 1.0, the 1.0 migration gets ``from`` 0.9 (the migration
    /// before it) and `upgradingFrom` 0.8.
    public let upgradingFrom: String?
    /// The app version (or build) being upgraded to.
    public let to: String
    /// How many earlier attempts of this migration were interrupted at this app build (the
    /// process died inside the body: killed, crashed, out of memory; see
    /// ``MigrationAttempt``), since it last succeeded or failed: a body can do less at once
    /// after one (smaller batches, a later start). 0 for hooks, and on a store that does not
    /// record attempts.
    ///
    /// ```swift
    /// let batchSize = context.interruptedAttempts == 0 ? 10_000 : 500
    /// ```
    public let interruptedAttempts: Int
    private let lines = Locked<[String]>([])
    private let fraction = Locked<Double>(0)
    private let onProgress: (@Sendable (Double) -> Void)?

    /// A context for calling a body yourself, say in a test; runs make their own.
    ///
    /// ```swift
    /// let context = MigrationContext(from: "0.9", upgradingFrom: "0.8", to: "1.0")
    /// try body(context)
    /// context.logLines   // what it logged
    /// ```
    public convenience init(from: String?, upgradingFrom: String? = nil, to: String, interruptedAttempts: Int = 0) {
        self.init(from: from, upgradingFrom: upgradingFrom, to: to, interruptedAttempts: interruptedAttempts, onProgress: nil)
    }

    /// A context whose progress reports reach `onProgress`, once per increase.
    init(from: String?, upgradingFrom: String?, to: String, interruptedAttempts: Int = 0, onProgress: (@Sendable (Double) -> Void)?) {
        self.from = from
        self.upgradingFrom = upgradingFrom
        self.to = to
        self.interruptedAttempts = interruptedAttempts
        self.onProgress = onProgress
    }

    /// Adds a line to the migration's log, shown in reports and the terminal UI.
    ///
    /// ```swift
    /// context.log("converted \(count) recipes")
    /// ```
    public func log(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    /// The lines logged so far.
    public var logLines: [String] { lines.withLock { $0 } }

    /// Reports how far the body got, from 0 to 1; a run passes it on as
    /// ``RunEvent/progress(_:_:)``. Values are clamped to 0…1, and progress only grows: a value
    /// below the last one reported (or not a number) is ignored.
    ///
    /// ```swift
    /// for (index, batch) in batches.enumerated() {
    ///     try await store.insert(batch)
    ///     context.reportProgress(Double(index + 1) / Double(batches.count))
    /// }
    /// ```
    public func reportProgress(_ fraction: Double) {
        guard !fraction.isNaN else { return }
        let clamped = min(max(fraction, 0), 1)
        let grew = self.fraction.withLock { last in
            guard clamped > last else { return false }
            last = clamped
            return true
        }
        if grew { onProgress?(clamped) }
    }

    /// The progress reported so far, from 0 to 1.
    public var progress: Double { fraction.withLock { $0 } }
}
