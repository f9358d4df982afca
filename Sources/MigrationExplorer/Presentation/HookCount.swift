/// How many of a plan's update hooks fire, in words that read naturally whatever the counts.
enum HookCount {
    /// "no hooks", "1 hook fires", "1 hook does not fire", "2 of 3 hooks fire", "1 of 3 hooks fires".
    ///
    /// ```swift
    /// HookCount.phrase(firing: 1, of: 3)   // "1 of 3 hooks fires"
    /// HookCount.phrase(firing: 0, of: 1)   // "1 hook does not fire"
    /// ```
    static func phrase(firing: Int, of total: Int) -> String {
        switch total {
        case 0: "no hooks"
        case 1: firing == 1 ? "1 hook fires" : "1 hook does not fire"
        default: "\(firing) of \(total.counting("hook")) \(firing.agreeing("fires", "fire"))"
        }
    }
}
