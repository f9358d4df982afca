import Foundation

/// One line of the benchmark table: a figure, the baseline measured in the same run, their
/// ratio, the goal and whether it is met.
struct Row {
    let figure: String
    let baseline: String
    let ratio: Double
    let target: String
    /// `nil`: reported beside a goal, not held to it.
    let met: Bool?
}

/// The rows measured so far, printed as one Markdown table at the end.
final class Table {
    private(set) var rows: [Row] = []

    func add(_ row: Row) {
        rows.append(row)
        print("  \(row.figure) · \(row.baseline) · \(String(format: "%.2f×", row.ratio)) · \(row.target)")
        fflush(nil)  // progress shows as it is made, even through a pipe
    }

    /// A row held to `ratio ≤ limit`.
    func ratio(_ figure: String, _ value: Double, baseline: String, _ baselineValue: Double, atMost limit: Double) {
        let ratio = value / baselineValue
        add(Row(figure: figure, baseline: baseline, ratio: ratio, target: String(format: "≤ %.1f×", limit), met: ratio <= limit))
    }

    func printMarkdown() {
        print("| figure | baseline | ratio | target | met |")
        print("| --- | --- | --- | --- | --- |")
        for row in rows {
            let met = row.met.map { $0 ? "yes" : "**no**" } ?? "–"
            print("| \(row.figure) | \(row.baseline) | \(String(format: "%.2f×", row.ratio)) | \(row.target) | \(met) |")
        }
    }
}
