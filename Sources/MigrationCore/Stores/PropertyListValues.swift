import Foundation

/// The top-level dictionary of a preferences plist, read from its bytes and written back in
/// the same format (binary stays binary, XML stays XML) with every key this package does not
/// write left as it was.
final class PropertyListValues: PreferenceValues {
    /// Why bytes are not a preferences plist.
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    private var values: [String: Any]
    let format: PropertyListSerialization.PropertyListFormat

    /// An empty dictionary, for a file that does not exist yet: binary, as the system writes
    /// preferences.
    init() {
        values = [:]
        format = .binary
    }

    /// The dictionary in `data`.
    /// - Throws: ``Problem`` when `data` is not a binary or XML plist holding a dictionary.
    init(data: Data) throws(Problem) {
        var format = PropertyListSerialization.PropertyListFormat.binary
        let root: Any
        do { root = try PropertyListSerialization.propertyList(from: data, options: [], format: &format) } catch {
            throw Problem(description: "not a property list")
        }
        guard format == .binary || format == .xml else {
            // Foundation reads almost any text (a word, a quoted string) as an old-style list.
            guard root is [String: Any] else { throw Problem(description: "not a property list this tool reads: neither XML nor binary") }
            throw Problem(description: "an old-style (OpenStep) property list, which cannot be written back as it is; convert it with `plutil -convert binary1`")
        }
        guard let dictionary = root as? [String: Any] else {
            throw Problem(description: "a property list whose top level is not a dictionary")
        }
        values = dictionary
        self.format = format
    }

    /// The dictionary, in the format it was read in.
    func encoded() throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: values, format: format, options: 0)
    }

    func object(forKey key: String) -> Any? { values[key] }

    /// Every key of the dictionary.
    var keys: Dictionary<String, Any>.Keys { values.keys }

    func string(forKey key: String) -> String? {
        switch values[key] {
        case let text as String: text
        case let number as NSNumber: number.stringValue
        default: nil
        }
    }

    func set(_ value: Any?, forKey key: String) { values[key] = value }

    func removeObject(forKey key: String) { values[key] = nil }
}
