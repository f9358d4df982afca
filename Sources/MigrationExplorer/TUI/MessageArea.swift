/// The rows above the footer: the prompt or filter being typed (with its cursor and any
/// error), a run's progress (and below it what a key said meanwhile), the last message, or
/// what waits for the store, wrapped to at most
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
            let label = prompt.kind == .from ? "From version (build): " : "App version (build): "
            edit(label, prompt.line, placeholder: prompt.kind == .from ? "e.g. 0.8 (90); empty: a fresh install" : "e.g. 1.2 (130)")
            if let error = prompt.error { append(error, role: .failed, width: room, glyphs: glyphs) }
        } else if let line = state.filterLine {
            edit("/", line, placeholder: nil)
        } else if let running = state.running {
            lines = [Self.runLine(state, finished: running.count, width: room, glyphs: glyphs)]
            // What a key said meanwhile (a key that does not act during a run says so) goes below.
            if let message = state.message { append(message.text, role: message.role, width: room, glyphs: glyphs) }
        } else if let message = state.message {
            append(message.text, role: message.role, width: room, glyphs: glyphs)
        } else if let awaited = state.awaitedStore {
            append("\(awaited.waitingSubject) waits for the store\(glyphs.ellipsis)", role: .dim, width: room, glyphs: glyphs)
        } else if !state.filter.isEmpty {
            append("filter: \(state.filter) (\(state.items.count) shown; Esc clears)", role: .dim, width: room, glyphs: glyphs)
        }
        if lines.isEmpty { lines = [StyledLine("")] }
    }

    /// Where the run is: starting or waiting for the store, cancelling, the running command
    /// with its elapsed time and latest output line, or the count of steps done and the running
    /// step's progress and elapsed time.
    private static func runLine(_ state: ViewState, finished: Int, width room: Int, glyphs: Glyphs) -> StyledLine {
        let cancelled = state.activity?.cancelled == true
        if let phase = state.runPhase, let message = phase.message(cancelled: cancelled, isSandbox: state.isSandbox, ellipsis: glyphs.ellipsis) {
            return StyledLine(message.text, message.role)
        }
        if let activity = state.activity, let command = activity.command {
            let elapsed = formatDuration(max(.zero, activity.now - command.started).inSeconds)
            // When narrow, the command is cut first: its time and its output stay readable.
            let bar = glyphs.unicode ? "│" : "|"
            let tail = " \(bar) \(elapsed) \(bar) \(activity.lastLine)"
            let title = command.title.cut(toWidth: max(Self.shortestLabel, room - tail.displayWidth), ellipsis: glyphs.ellipsis)
            return StyledLine(title + tail, .pending)
        }
        // Steps: the pending migrations, then the hooks that fire.
        let steps = (state.plan?.pending.count ?? 0) + (state.plan?.hooks.count(where: \.fires) ?? 0)
        var line = "running\(glyphs.ellipsis) \(finished) of \(steps) done"
        if let step = state.runningStep {
            // When narrow, the label is cut first and the count dropped next: the progress
            // and the time always show.
            let head = line + " \(glyphs.separator) "
            let labelRoom = room - head.displayWidth - step.progress(glyphs: glyphs).displayWidth
            line = labelRoom >= Self.shortestLabel ? head + step.line(glyphs: glyphs, width: room - head.displayWidth)
                : step.line(glyphs: glyphs, width: room)
        }
        return StyledLine(line, .pending)
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
