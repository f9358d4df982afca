import MigrationCore

/// The table's status column: each row's phrase, whole ("skipped: out of order") or compact
/// ("out of order", the glyph saying it is skipped), and how wide the column is. It is as wide
/// as the widest status it holds, so no status is cut; when whole phrases would cut a title,
/// the compact ones give the titles room.
///
/// ```swift
/// let column = StatusColumn(widths: state.tableWidths, tableWidth: 60)   // compact: true
/// ```
struct StatusColumn: Equatable {
    /// Room for a run's live statuses ("> running...", "✓ succeeded").
    static let minimumWidth = 12
    /// The columns besides the status and the title: marker, run order, version and the gaps.
    static let otherColumns = 2 + 1 + 2 + 1 + 13 + 1 + 1

    let width: Int
    let compact: Bool

    /// The column for rows of `widths`, in a table `tableWidth` wide.
    init(widths: TableWidths, tableWidth: Int) {
        let whole = max(Self.minimumWidth, widths.whole)
        compact = tableWidth - whole - Self.otherColumns < widths.title
        width = compact ? max(Self.minimumWidth, widths.compact) : whole
    }
}

/// The widest status of a table's rows, glyph and space included, whole and compact, and the
/// widest title.
package struct TableWidths: Equatable, Sendable {
    var whole = 0
    var compact = 0
    var title = 0

    /// The widths of `items`' statuses and titles; `held`: the migrations held back by their
    /// interruptions, by id.
    init(_ items: [ViewState.Item], held: Set<Int> = []) {
        for item in items {
            let isHeld = item.migration.map { held.contains($0.id) } ?? false
            whole = max(whole, 2 + item.statusPhrase(compact: false, held: isHeld).count)
            compact = max(compact, 2 + item.statusPhrase(compact: true, held: isHeld).count)
            title = max(title, item.title.displayWidth)
        }
    }
}

extension ViewState.Item {
    /// The row's title: the migration's or the hook's.
    var title: String {
        switch self {
        case .migration(let entry): entry.migration.title
        case .hook(let hookPlan): hookPlan.hook.title
        case .unplanned(let migration): migration.title
        }
    }

    /// The row's status in words: "pending", "skipped: above app", "fires", "held back" (a
    /// pending migration `held` back by its interrupted attempts); `compact` drops "skipped: ",
    /// which the glyph says.
    func statusPhrase(compact: Bool, held: Bool = false) -> String {
        switch self {
        case .migration where held:
            return "held back"
        case .migration(let entry):
            guard case .skipped(let reason) = entry.status else { return entry.status.word }
            let why = switch reason {
            case .aboveAppVersion: "above app"
            case .outOfOrder: "out of order"
            case .invalidVersion: "invalid"
            case .duplicate: "duplicate"
            }
            return compact ? why : "skipped: \(why)"
        case .hook(let hookPlan): return hookPlan.fires ? "fires" : "does not fire"
        case .unplanned: return "unknown"
        }
    }
}
