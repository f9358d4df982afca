/// The rows above the footer: the prompt or filter being typed (with its cursor and any
/// error), a run's progress, or the last message, wrapped to at most
/// ``Layout/maximumMessageRows`` rows instead of being cut.
struct MessageArea {
    private(set) var lines: [StyledLine] = []
    /// The column of the text cursor on the first row, while a prompt or the filter is typed.
    private(set) var cursorColumn: Int?
    /// The columns of the selected text on the first row: a prompt's value, which typing replaces.
    private(set) var selectedColumns: Range<Int>?

    /// Text starts one column in.
    static let indent = 1
    /// The fewest columns of a running step's label worth showing beside the run's count.
    static let shortestLabel = 16

    init(_ state: ViewState, width: Int, glyphs: Glyphs) {
        let room = max(1, width - Self.indent - 1)
        if let prompt = state.prompt {
            let label = prompt.kind == .from ? "From version (build): " : "App version: "
            edit(label, prompt.line, placeholder: prompt.kind == .from ? "e.g. 0.8 (90); empty: a fresh install" : nil)
            if let error = prompt.error { append(error, role: .failed, width: room, glyphs: glyphs) }
        } else if let line = state.filterLine {
            edit("/", line, placeholder: nil)
        } else if let running = state.running {
            // Steps: the pending migrations, then the hooks that fire.
            let steps = (state.plan?.pending.count ?? 0) + (state.plan?.hooks.count(where: \.fires) ?? 0)
            var line = "running\(glyphs.ellipsis) \(running.count) of \(steps) done"
            if let step = state.runningStep {
                // When narrow, the label is cut first and the count dropped next: the progress
                // and the time always show.
                let head = line + " \(glyphs.separator) "
                let labelRoom = room - head.displayWidth - step.progress(glyphs: glyphs).displayWidth
                line = labelRoom >= Self.shortestLabel ? head + step.line(glyphs: glyphs, width: room - head.displayWidth)
                    : step.line(glyphs: glyphs, width: room)
            }
            lines = [StyledLine(line, .pending)]
        } else if let message = state.message {
            append(message.text, role: message.role, width: room, glyphs: glyphs)
        } else if !state.filter.isEmpty {
            append("filter: \(state.filter) (\(state.items.count) shown; Esc clears)", role: .dim, width: room, glyphs: glyphs)
        }
        if lines.isEmpty { lines = [StyledLine("")] }
    }

    private mutating func edit(_ label: String, _ line: LineEditor, placeholder: String?) {
        let hint = line.text.isEmpty ? placeholder.map { "  " + $0 } ?? "" : ""
        lines = [StyledLine(label + line.text + " " + hint, .accent)]
        let start = Self.indent + label.displayWidth
        cursorColumn = start + line.text.prefix(line.cursor).displayWidth
        if line.isSelected { selectedColumns = start..<(start + line.text.displayWidth) }
    }

    /// Appends `text` wrapped; what does not fit in the last allowed row ends with an ellipsis.
    private mutating func append(_ text: String, role: StyleRole, width: Int, glyphs: Glyphs) {
        let room = Layout.maximumMessageRows - lines.count
        guard room > 0 else { return }
        var wrapped = wrap(text, width: width)
        if wrapped.count > room {
            wrapped = Array(wrapped.prefix(room))
            wrapped[room - 1] = String(wrapped[room - 1].prefix(max(0, wrapped[room - 1].count - glyphs.ellipsis.count))) + glyphs.ellipsis
        }
        lines += wrapped.map { StyledLine($0, role) }
    }
}
