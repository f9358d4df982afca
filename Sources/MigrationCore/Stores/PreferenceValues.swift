import Foundation

/// Where a preferences store keeps its values: `UserDefaults` (``SerializedDefaults``), or the top-level dictionary of
/// a preferences plist (``PropertyListValues``). The names are `UserDefaults`' own, so that
/// both keep the records under the same keys, read and written by one piece of code
/// (``UserDefaultsKeys``).
protocol PreferenceValues {
    func object(forKey key: String) -> Any?
    /// A string value, or a number's text (as `UserDefaults` gives it); `nil` otherwise.
    func string(forKey key: String) -> String?
    func set(_ value: Any?, forKey key: String)
    func removeObject(forKey key: String)
}
