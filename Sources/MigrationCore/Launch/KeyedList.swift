/// Values by `String` key: a dictionary for the few entries every launch makes (the store
/// resources of a process, the mark caches of a resource), which must not cost a launch the
/// first use of a `Dictionary` keyed by `String` (see ``LaunchCheck``). The first entry is
/// kept on its own, the others in a list searched in order: a launch, which makes one of
/// each, builds no list.
///
/// ```swift
/// var caches = KeyedList<MarksCache>()
/// caches["json default"] = MarksCache()
/// caches["json default"]   // the cache
/// ```
struct KeyedList<Value> {
    private var first: (key: String, value: Value)?
    private var others: [(key: String, value: Value)] = []

    /// The value for `key`; setting it replaces the value or adds an entry.
    subscript(key: String) -> Value? {
        get {
            if let first, first.key == key { return first.value }
            return others.first { $0.key == key }?.value
        }
        set {
            removeAll { entryKey, _ in entryKey == key }
            guard let newValue else { return }
            if first == nil { first = (key, newValue) } else { others.append((key, newValue)) }
        }
    }

    /// Every value.
    var values: [Value] { (first.map { [$0.value] } ?? []) + others.map(\.value) }

    /// Removes the entries whose value meets `condition`.
    mutating func removeAll(where condition: (Value) -> Bool) {
        removeAll { _, value in condition(value) }
    }

    private mutating func removeAll(_ condition: (String, Value) -> Bool) {
        if !others.isEmpty { others.removeAll { condition($0.key, $0.value) } }
        if let entry = first, condition(entry.key, entry.value) {
            first = others.isEmpty ? nil : others.removeFirst()
        }
    }
}
