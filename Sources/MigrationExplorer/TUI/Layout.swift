/// Where each part of the main screen goes for a terminal size: side by side when wide,
/// stacked when narrow, and a notice below the minimum.
package struct Layout: Equatable, Sendable {
    /// Below this the UI says "terminal too small" instead of drawing.
    package static let minimum = Size(width: 50, height: 14)
    /// From this width on, the details pane sits beside the table.
    package static let wideFrom = 120

    package let size: Size

    package init(_ size: Size) { self.size = size }

    package var isTooSmall: Bool { size.width < Self.minimum.width || size.height < Self.minimum.height }
    package var isWide: Bool { size.width >= Self.wideFrom }

    /// The rows between the two header lines and the message line and footer.
    package var bodyTop: Int { 2 }
    package var bodyHeight: Int { size.height - 4 }
    package var messageRow: Int { size.height - 2 }
    package var footerRow: Int { size.height - 1 }

    package var tableWidth: Int { isWide ? size.width * 3 / 5 : size.width }
    package var tableHeight: Int { isWide ? bodyHeight : bodyHeight - detailsHeight }
    /// Table rows that show items (one row is the column header).
    package var visibleRows: Int { max(1, tableHeight - 1) }

    package var detailsTop: Int { isWide ? bodyTop : bodyTop + tableHeight + 1 }
    package var detailsLeft: Int { isWide ? tableWidth + 2 : 1 }
    package var detailsWidth: Int { isWide ? size.width - tableWidth - 3 : size.width - 2 }
    /// Rows of details text (narrow: below a separator line).
    package var detailsHeight: Int { isWide ? bodyHeight : max(5, bodyHeight * 2 / 5) }
    package var detailsTextHeight: Int { isWide ? bodyHeight : detailsHeight - 1 }
}
