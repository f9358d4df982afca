import MigrationCore
import MigrationManifest

/// What the loop's subscriptions change on screen: another process's change to the store is
/// read again through ``Effect/follow(writer:)`` (once it can be: not during a run, nor while
/// the store works on an effect; a burst meanwhile is read once), and the message line says
/// what changed; a save of the manifest shows its registry, or keeps the last good plan
/// marked out of date with the manifest's problem.
///
/// ```swift
/// let effect = Update.handle(.storeChanged(.changed(writer: "web-1, pid 4121")), &state, layout: layout)   // .follow
/// ```
extension Update {
    static func apply(_ change: StoreChange, _ state: inout ViewState) -> Effect? {
        switch change {
        case .changed(let writer):
            return follow(.init(writer: writer), &state)
        case .interrupted(let reason):
            state.message = .init(text: "Not following changes for now: \(reason.drawable)", role: .warning)
            return nil
        case .resumed:
            state.message = .init(text: "Following the store's changes again; read it again", role: .dim)
            return follow(.init(writer: nil), &state)
        }
    }

    static func apply(_ outcome: ManifestFollower.Outcome, _ state: inout ViewState) -> Effect? {
        switch outcome {
        case .updated(_, let summary):
            state.manifestProblem = nil
            state.message = .init(text: summary.capitalisingFirst, role: .accent)
            return follow(.init(writer: nil), &state)
        case .broken(let error):
            state.manifestProblem = problemText(error)
            state.message = .init(text: "The manifest as saved cannot be used; the plan shown is the last good one. \(state.manifestProblem ?? "")", role: .warning)
            return nil
        }
    }

    /// Reads the store again now, unless a run goes on or the store works on an effect: then
    /// the change waits (``ViewState/unreadChange``), and one read follows however many came.
    static func follow(_ change: ViewState.UnreadChange, _ state: inout ViewState) -> Effect? {
        guard !state.isRunning, state.awaitedStore == nil else {
            state.unreadChange = .init(writer: change.writer ?? state.unreadChange?.writer)
            return nil
        }
        state.unreadChange = nil
        let effect = Effect.follow(writer: change.writer)
        state.awaitedStore = effect
        return effect
    }

    /// The change that waited for the store, read now that it is free.
    static func followUnread(_ state: inout ViewState) -> Effect? {
        guard let change = state.unreadChange else { return nil }
        return follow(change, &state)
    }

    /// After the store was read again: what changed since `shown`, said on the message line
    /// (two of its rows at most),
    /// and a dry-run or matrix open over it marked out of date. Records as shown (the
    /// explorer's own writes, heard after it) say nothing. A change that moves no status keeps
    /// a line that said what an earlier change moved (a run's last write, its app version,
    /// after its migrations). While the message line says what the store changed, a change
    /// that moves only other migrations adds to it (a run's migrations, each its own write,
    /// however the reads fell between them); one that moves a migration the line named again
    /// (a reset after a run) is said on its own.
    static func tellChange(since shown: MigrationPlan?, writer: String?, _ state: inout ViewState, width: Int) {
        guard let shown, let now = state.plan, shown.state != now.state else { return }
        let lead = "Store changed: "
        let saysAChange = state.message?.text.hasPrefix(lead) == true
        let moved = ChangeSummary.migrationsChangingStatus(from: shown, to: now)
        var since = shown
        if saysAChange, let earlier = state.message?.storeChangesSince,
           ChangeSummary.migrationsChangingStatus(from: earlier, to: shown).isDisjoint(with: moved) {
            since = earlier
        }
        let keepsLine = moved.isEmpty && saysAChange
        if !keepsLine {
            let told = ChangeSummary.store(from: since, to: now, by: writer, width: max(10, (width - 2) * 2 - lead.count))
            state.message = .init(text: lead + told, role: .accent, storeChangesSince: since)
        }
        switch state.overlay {
        case .report(let report) where report.mode == .dryRun: state.overlayOutOfDate = true
        case .matrix: state.overlayOutOfDate = true
        default: break
        }
    }

    /// The manifest's first problem, where it is: "manifest.json: file: … line 3, column 5".
    private static func problemText(_ error: ManifestError) -> String {
        let name = error.path.split(separator: "/").last.map(String.init) ?? error.path
        let more = error.problems.count > 1 ? " (and \(error.problems.count - 1) more)" : ""
        return "\(name): \(error.problems.first?.description ?? "cannot be used")\(more)".drawable
    }
}
