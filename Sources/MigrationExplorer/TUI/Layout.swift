/// Where each part of the main screen goes for a terminal size: side by side when wide,
/// stacked when narrow, and a notice below the minimum. The header and the message area
/// take the rows they need (a downgrade line, a wrapped message).
package struct Layout: Equatable, Sendable {
    /// Below this the UI says "terminal too small" instead of drawing.
    package static let minimum = Size(width: 50, height: 14)
    /// From this width on, the details pane sits beside the table.
    package static let wideFrom = 120
    /// A message or prompt error wraps to at most this many rows.
    package static let maximumMessageRows = 3

    package let size: Size
    package let headerHeight: Int
    package let messageHeight: Int

    package init(_ size: Size, headerHeight: Int = 2, messageHeight: Int = 1) {
        self.size = size
        self.headerHeight = headerHeight
        self.messageHeight = max(1, min(Self.maximumMessageRows, messageHeight))
    }

    /// The layout `state` needs on a screen of `size`.
    package init(_ size: Size, for state: ViewState, unicode: Bool) {
        let glyphs = Glyphs(unicode: unicode)
        self.init(size, headerHeight: Header.height(state),
                  messageHeight: MessageArea(state, width: size.width, glyphs: glyphs).lines.count)
    }

    package var isTooSmall: Bool { size.width < Self.minimum.width || size.height < Self.minimum.height }
    package var isWide: Bool { size.width >= Self.wideFrom }

    /// The rows between the header and the message area and footer.
    package var bodyTop: Int { headerHeight }
    package var bodyHeight: Int { size.height - headerHeight - messageHeight - 1 }
    package var messageRow: Int { size.height - 1 - messageHeight }
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
