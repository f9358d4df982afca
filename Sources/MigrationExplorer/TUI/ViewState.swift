import MigrationCore

/// Everything the terminal UI shows, as a value: the current plan (from `MigrationCore`) or
/// why there is none, the selection, the open overlay or prompt, the filter and the message.
package struct ViewState: Sendable {
    package enum Pane: Sendable { case table, details }

    /// A row of the table: a migration, an update hook, or a migration whose status is
    /// unknown because no plan could be made.
    package enum Item: Sendable {
        case migration(PlanEntry)
        case hook(HookPlan)
        case unplanned(RegisteredMigration)
    }

    package enum Overlay: Sendable {
        case help
        /// A run or dry-run report.
        case report(RunReport)
        case problems
        case whatsNew(pages: [RegisteredMigration], page: Int)
        /// Every upgrade path; `selection` is a row.
        case matrix(UpgradeMatrix, selection: Int)
        case confirm(Confirmation)
    }

    package enum Confirmation: Sendable {
        case reset, run, writeFrom
    }

    /// An inline prompt on the message line.
    package struct Prompt: Sendable {
        package enum Kind: Sendable { case from, to }
        package var kind: Kind
        package var line: LineEditor
        package var error: String?

        package init(kind: Kind, text: String) {
            self.kind = kind
            line = LineEditor(selected: text)
        }

        package var text: String { line.text }
    }

    package struct Message: Sendable {
        package var text: String
        package var role: StyleRole
        /// For a "Store changed:" line: the plan it tells the changes since, so that a change
        /// heard while it shows adds to it (a run's several writes, read in two goes, are said
        /// as one); it goes with the line.
        package var storeChangesSince: MigrationPlan? = nil
    }

    package var appName: String
    package var storeLabel: StoreLabel
    package var storeDescription: String { storeLabel.text }
    package var isSandbox: Bool
    /// The real store's path, when there is one, simulated over or not.
    package var realStorePath: String?
    /// The simulated device the real store can be set to ("a device at 0.8 (build 90)"); `nil`
    /// when there is none (no real store, the real store itself, a fresh install).
    package var writableDevice: String?
    /// The device a sandbox plays, which a reset brings back ("a device at 0.8 (build 90)",
    /// "a fresh install"); `nil` for a real store.
    package var sandboxDevice: String?
    /// Why runs and resets cannot write the store they go to ("state.json: cannot be written
    /// (permission denied: …)"); `nil` when they can. Run and reset are then not offered.
    package var unwritableStore: String?
    /// Why the real store cannot be written, simulated over or not ("state.json: cannot be
    /// written (…)"); `nil` when it can. Writing the simulated device to it is then refused.
    package var unwritableRealStore: String?
    /// The migrations, listed (status unknown) when no plan could be made.
    package var registry: MigrationRegistry
    /// Where the upgrade goes, known even without a plan.
    package var target: AppTarget
    /// What a run does for real even in a sandbox (see ``ExplorerApp/sandboxRunsForReal``).
    package var sandboxRunsForReal: ExplorerApp.RealWork?
    /// What each step runs (a manifest's SQL and commands), shown before it runs.
    package var actions = StepActions()
    package private(set) var plan: MigrationPlan?
    /// Why there is no plan (a store that cannot be read), if there is none.
    package private(set) var planError: String?
    /// The plan's problems, downgrades first.
    private(set) var problems: [PlanProblem] = []
    /// The last run or dry-run, whose results the details pane shows.
    package var lastReport: RunReport?
    /// A run in progress: the steps finished so far.
    package var running: FinishedSteps?
    /// The step a run is in, while it is in one.
    package var runningStep: RunningStep?
    /// The run in progress, while one is.
    package var activity: RunActivity?
    package private(set) var items: [Item] = []
    /// The widest status and title of the rows, for the table's status column.
    package private(set) var tableWidths = TableWidths([])
    /// The migrations a run would hold back for their interrupted attempts, by id.
    package private(set) var heldByInterruptions: Set<Int> = []
    /// How many migrations have each status word, for the summary line.
    package private(set) var statusCounts: [String: Int] = [:]
    /// Each pending migration's place in the run (from 1), by migration id.
    package private(set) var runPosition: [Int: Int] = [:]
    package var selection = 0
    package var tableTop = 0
    package var focus = Pane.table
    package var detailsOffset = 0
    /// The open overlay; opening one scrolls it to the top.
    package var overlay: Overlay? {
        didSet {
            overlayOffset = 0
            overlayOutOfDate = false
        }
    }
    /// Whether the open dry-run or matrix no longer matches the store, which changed under it.
    package var overlayOutOfDate = false
    package var overlayOffset = 0
    /// The first of the matrix's migration columns shown, when they do not all fit.
    package var overlayColumn = 0
    package var prompt: Prompt?
    package private(set) var filter = ""
    /// The filter being typed, while it is.
    package var filterLine: LineEditor?
    package var message: Message?
    /// The store's work the loop waits for (``Effect/isStoreWork``), while it does: the first
    /// read shows "reading …" where the rows will be, and keys that need the store say they wait.
    package var awaitedStore: Effect?
    /// A change of the store heard while it could not be read at once (a run going on, an
    /// effect the store works on): read once it can be, once however many came meanwhile.
    package var unreadChange: UnreadChange?
    /// Why the plan shown is out of date: the manifest as saved now cannot be read or is
    /// invalid ("manifest.json: file: … line 3, column 5"); `nil` once a save fixes it.
    package var manifestProblem: String?

    /// A change of the store not read yet, and who made it where the store knows.
    package struct UnreadChange: Sendable, Equatable {
        package var writer: String?
    }

    /// Whether the store has not answered yet: there is nothing of it to show.
    package var isReading: Bool { awaitedStore == Session.opening }

    package init(appName: String, storeLabel: StoreLabel, isSandbox: Bool, registry: MigrationRegistry, target: AppTarget) {
        self.appName = appName
        self.storeLabel = storeLabel
        self.isSandbox = isSandbox
        self.registry = registry
        self.target = target
    }

    /// Shows a new plan, keeping the selected migration selected where it still shows.
    package mutating func show(_ plan: MigrationPlan) {
        let selectedID = selectedMigrationID
        self.plan = plan
        planError = nil
        target = plan.target
        statusCounts = [:]
        for entry in plan.entries { statusCounts[entry.status.word, default: 0] += 1 }
        runPosition = plan.runPositions
        problems = PlanProblem.all(in: plan)
        rebuildItems(keeping: selectedID)
    }

    /// Shows that no plan could be made, and why: the migrations stay listed, status unknown.
    package mutating func showPlanError(_ error: String) {
        let selectedID = selectedMigrationID
        plan = nil
        planError = error
        statusCounts = [:]
        runPosition = [:]
        problems = []
        rebuildItems(keeping: selectedID)
    }

    package mutating func setFilter(_ text: String) {
        filter = text
        rebuildItems(keeping: nil)
        selection = 0
        tableTop = 0
    }

    /// Whether the main screen offers `action`: not run or reset on a store they cannot write,
    /// and going back to the real store only while a simulated device is played over one.
    package func offers(_ action: Action) -> Bool {
        switch action {
        case .runPending, .reset: unwritableStore == nil
        case .backToRealStore: isSandbox && realStorePath != nil
        default: true
        }
    }

    package var selectedItem: Item? { items.indices.contains(selection) ? items[selection] : nil }

    private var selectedMigrationID: Int? { selectedItem?.migration?.id }

    private mutating func rebuildItems(keeping selectedID: Int?) {
        let all: [Item] = plan.map { $0.entries.map(Item.migration) + $0.hooks.map(Item.hook) }
            ?? registry.migrations.map(Item.unplanned)
        let needle = filter.lowercased()
        items = needle.isEmpty ? all : all.filter { $0.searchText.contains(needle) }
        heldByInterruptions = plan.map { plan in
            Set(plan.entries.lazy.filter { plan.interruptionHoldBack(of: $0.migration) != nil }.map(\.migration.id))
        } ?? []
        tableWidths = TableWidths(items, held: heldByInterruptions)
        if let selectedID, let index = items.firstIndex(where: { $0.migration?.id == selectedID }) { selection = index }
    }
}

extension ViewState.Item {
    /// The migration of the row, if it is one.
    var migration: RegisteredMigration? {
        switch self {
        case .migration(let entry): entry.migration
        case .unplanned(let migration): migration
        case .hook: nil
        }
    }

    /// What `/` matches: title, version, status and reason, lower-cased.
    var searchText: String {
        switch self {
        case .migration(let entry):
            "\(entry.migration.trackAndVersion) \(entry.migration.title) \(entry.status.phrase) \(entry.status.word)".lowercased()
        case .hook(let hook):
            "\(hook.hook.kind) \(hook.hook.title) hook \(hook.fires ? "fires" : "")".lowercased()
        case .unplanned(let migration):
            "\(migration.trackAndVersion) \(migration.title) unknown".lowercased()
        }
    }
}
