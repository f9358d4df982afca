extension Duration {
    /// The duration in seconds, as a `Double`: `Duration.milliseconds(1500).inSeconds == 1.5`.
    var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// Seconds as people write them: "30", "0.5".
    var secondsText: String {
        let seconds = inSeconds
        return seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)
    }
}
