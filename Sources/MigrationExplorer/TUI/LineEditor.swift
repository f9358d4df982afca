/// A line of text being typed, with a cursor, edited as in a shell (see
/// ``Keymap/lineEditing``). Control characters never get in. Text given beforehand (a
/// prompt's current value) can start selected: the first character typed replaces it, while
/// any editing key (a cursor move, Backspace, Ctrl-U…) keeps it and edits it.
///
/// ```swift
/// var line = LineEditor(selected: "1.0")
/// line.insert("0")                // "0": typing replaces the selected text
/// line.apply(.deleteToStart)      // Ctrl-U
/// line.insert("1")
/// ```
package struct LineEditor: Sendable, Equatable {
    package private(set) var text: String
    /// Where the next character goes, counted in characters from the start.
    package private(set) var cursor: Int
    /// Whether the whole text is selected, so that the next character typed replaces it.
    package private(set) var isSelected = false

    package init(_ text: String = "") {
        self.text = text
        cursor = text.count
    }

    /// `text`, selected (when there is any): the first character typed replaces it.
    package init(selected text: String) {
        self.init(text)
        isSelected = !text.isEmpty
    }

    /// Inserts `character` at the cursor, in place of the text while it is selected. A
    /// combining mark or joiner, typed on its own, joins the character before it, and the
    /// cursor stays after that one.
    package mutating func insert(_ character: Character) {
        if isSelected { self = LineEditor() }
        let count = text.count
        text.insert(character, at: index(cursor))
        cursor = min(text.count, cursor + text.count - count)
    }

    package mutating func apply(_ edit: LineEdit) {
        isSelected = false
        switch edit {
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(text.count, cursor + 1)
        case .home: cursor = 0
        case .end: cursor = text.count
        case .deleteBackward: delete(from: cursor - 1, to: cursor)
        case .deleteForward: delete(from: cursor, to: cursor + 1)
        case .deleteToStart: delete(from: 0, to: cursor)
        case .deleteToEnd: delete(from: cursor, to: text.count)
        case .deleteWordBackward:
            let before = Array(text.prefix(cursor))
            var start = before.count
            while start > 0, before[start - 1] == " " { start -= 1 }
            while start > 0, before[start - 1] != " " { start -= 1 }
            delete(from: start, to: cursor)
        case .submit, .cancel, .leave: break
        }
    }

    private mutating func delete(from start: Int, to end: Int) {
        let start = max(0, start), end = min(text.count, end)
        guard start < end else { return }
        text.removeSubrange(index(start)..<index(end))
        cursor = start
    }

    private func index(_ offset: Int) -> String.Index { text.index(text.startIndex, offsetBy: max(0, min(offset, text.count))) }
}
