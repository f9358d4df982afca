import MigrationCore

/// Everything the terminal UI shows, as a value: the current plan (from `MigrationCore`), the
/// selection, the open overlay or prompt, the filter and the message line.
package struct ViewState: Sendable {
    package enum Pane: Sendable { case table, details }

    /// A row of the table: a migration, or an update hook.
    package enum Item: Sendable {
        case migration(PlanEntry)
        case hook(HookPlan)
    }

    package enum Overlay: Sendable {
        case help
        /// A run or dry-run report, scrolled by `offset` lines.
        case report(RunReport, offset: Int)
        case whatsNew(pages: [RegisteredMigration], page: Int)
        case confirm(Confirmation)
    }

    package enum Confirmation: Sendable {
        case reset, run
    }

    /// An inline prompt on the message line.
    package struct Prompt: Sendable {
        package enum Kind: Sendable { case from, to }
        package var kind: Kind
        package var text: String
        package var error: String?
    }

    package struct Message: Sendable {
        package var text: String
        package var role: StyleRole
    }

    package var appName: String
    package var storeDescription: String
    package var isSandbox: Bool
    /// Whether a run executes external commands, even in a sandbox.
    package var runsCommands = false
    package private(set) var plan: MigrationPlan?
    /// Why there is no plan (a store that cannot be read), if there is none.
    package var planError: String?
    /// The last run or dry-run, whose results the details pane shows.
    package var lastReport: RunReport?
    /// A run in progress: the steps finished so far.
    package var running: [RunStep]?
    package private(set) var items: [Item] = []
    /// How many migrations have each status word, for the summary line.
    package private(set) var statusCounts: [String: Int] = [:]
    /// Each pending migration's place in the run (from 1), by migration id.
    package private(set) var runPosition: [Int: Int] = [:]
    package var selection = 0
    package var tableTop = 0
    package var focus = Pane.table
    package var detailsOffset = 0
    package var overlay: Overlay?
    package var prompt: Prompt?
    package private(set) var filter = ""
    package var isEditingFilter = false
    package var message: Message?
    package var wantsQuit = false
    package var wantsRedraw = false

    package init(appName: String, storeDescription: String, isSandbox: Bool) {
        self.appName = appName
        self.storeDescription = storeDescription
        self.isSandbox = isSandbox
    }

    /// Shows a new plan, keeping the selected migration selected where it still shows.
    package mutating func show(_ plan: MigrationPlan) {
        let selectedID = selectedItem.flatMap { item -> Int? in if case .migration(let entry) = item { entry.migration.id } else { nil } }
        self.plan = plan
        planError = nil
        statusCounts = [:]
        for entry in plan.entries { statusCounts[entry.status.word, default: 0] += 1 }
        runPosition = plan.runPositions
        rebuildItems()
        if let selectedID, let index = items.firstIndex(where: { if case .migration(let entry) = $0 { entry.migration.id == selectedID } else { false } }) {
            selection = index
        }
        clampSelection()
    }

    package mutating func setFilter(_ text: String) {
        filter = text
        rebuildItems()
        selection = 0
        tableTop = 0
    }

    package var selectedItem: Item? { items.indices.contains(selection) ? items[selection] : nil }

    package mutating func clampSelection() {
        selection = max(0, min(selection, items.count - 1))
    }

    private mutating func rebuildItems() {
        guard let plan else { return items = [] }
        let all = plan.entries.map(Item.migration) + plan.hooks.map(Item.hook)
        let needle = filter.lowercased()
        items = needle.isEmpty ? all : all.filter { $0.searchText.contains(needle) }
    }
}

extension ViewState.Item {
    /// What `/` matches: title, version, status and reason, lower-cased.
    var searchText: String {
        switch self {
        case .migration(let entry):
            "\(entry.migration.trackAndVersion) \(entry.migration.title) \(entry.status.phrase) \(entry.status.word)".lowercased()
        case .hook(let hook):
            "\(hook.hook.kind) \(hook.hook.title) hook \(hook.fires ? "fires" : "")".lowercased()
        }
    }
}
