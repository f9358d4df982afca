/// Words that agree with a count, for what people read: "1 step", "3 steps", "1 hook fires".
extension Int {
    /// `singular` when the count is one, `plural` otherwise (by default `singular` + "s").
    ///
    /// ```swift
    /// 1.agreeing("fires", "fire")   // "fires"
    /// 0.agreeing("fires", "fire")   // "fire"
    /// ```
    func agreeing(_ singular: String, _ plural: String? = nil) -> String {
        self == 1 ? singular : plural ?? singular + "s"
    }

    /// The count and the noun that agrees with it.
    ///
    /// ```swift
    /// 1.counting("step")   // "1 step"
    /// 7.counting("step")   // "7 steps"
    /// ```
    func counting(_ singular: String, _ plural: String? = nil) -> String {
        "\(self) \(agreeing(singular, plural))"
    }
}
