extension ViewState {
    /// Normalises every position for a terminal of `size`; below the minimum nothing shows,
    /// so they stay as they are.
    mutating func fit(to size: Size, unicode: Bool) {
        let layout = Layout(size, for: self, unicode: unicode)
        guard !layout.isTooSmall else { return }
        normalise(layout: layout, glyphs: Glyphs(unicode: unicode))
    }

    /// Brings every position back in range after an update or a resize: the selection onto a
    /// row, the table's top so the selection shows and no rows are left blank, the details
    /// and overlay scrolled no further than their last line. So no key is ever dead, and
    /// nothing is drawn from a stale position.
    mutating func normalise(layout: Layout, glyphs: Glyphs) {
        selection = max(0, min(selection, items.count - 1))
        let visible = layout.visibleRows
        tableTop = max(0, min(tableTop, items.count - visible))
        if selection < tableTop { tableTop = selection }
        if selection >= tableTop + visible { tableTop = selection - visible + 1 }
        let details = DetailsText.lines(for: self, width: layout.detailsWidth, glyphs: glyphs).count
        detailsOffset = max(0, min(detailsOffset, details - layout.detailsTextHeight))
        let overlayLimit = overlay.map { Overlays.maxOffset($0, state: self, size: layout.size, glyphs: glyphs) } ?? 0
        overlayOffset = max(0, min(overlayOffset, overlayLimit))
        if case .matrix(let matrix, _) = overlay {
            overlayColumn = max(0, min(overlayColumn, MatrixView.lastFirstColumn(matrix, width: Overlays.innerWidth(layout.size))))
        } else {
            overlayColumn = 0
        }
    }
}
