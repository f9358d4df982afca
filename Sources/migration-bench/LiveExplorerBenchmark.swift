import Foundation
import MigrationCore
#if PostgreSQL
import ThrowawayPostgresServer
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 30: the live explorer, on the shipped binary. The time from another process's change
/// of the store (a `set`, timed from its end) to `plan --watch --json`'s new line, as a ratio
/// to one `plan --json` of the same store (median of ``changes``); the idle CPU (utime + stime)
/// over ``idleSeconds`` of `plan --watch` and of the terminal UI (in tmux). On a file store and,
/// with the PostgreSQL trait, on a throwaway server.
enum LiveExplorerBenchmark {
    static let changes = 20
    static let idleSeconds = 10.0

    static func run(_ table: Table) throws {
        let binary = try BinaryBenchmark.shippedBinary()
        let folder = temporaryFolder("live")
        defer { try? FileManager.default.removeItem(at: folder) }
        print("\nThe live explorer, the shipped binary: \(changes) changes, \(Int(idleSeconds)) s idle")
        let file = ["--store", folder.appendingPathComponent("state.json").path]
        try watchPlan(binary, store: file, kind: "file store", table)
        terminalUIIdle(binary, store: file, kind: "file store", table)
        #if PostgreSQL
        let server = try ThrowawayPostgres.shared()
        defer { server.stop() }
        let url = try server.createDatabase()
        let database = String(url.split(separator: "/").last ?? "")
        let listeners = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%'"
        let postgres = ["--postgres", url]
        try watchPlan(binary, store: postgres, kind: "PostgreSQL", table) { (try? server.psql(listeners, database: database)) == "1" }
        terminalUIIdle(binary, store: postgres, kind: "PostgreSQL", table)
        #endif
    }

    /// `plan --watch --json` on `store`: idle, then following ``changes`` changes; `listening`
    /// says when it hears changes (a PostgreSQL listener connects after the first plan).
    private static func watchPlan(_ binary: String, store: [String], kind: String, _ table: Table,
                                  listening: () -> Bool = { true }) throws {
        let set = { (version: String) -> Void in _ = BinaryBenchmark.spawn(binary, ["set", "--version", version] + store) }
        set("0.8")
        let plan = median(repetitions: 5) { BinaryBenchmark.spawn(binary, ["plan", "--json"] + store) }
        let watch = try WatchedLines(binary, ["plan", "--watch", "--json"] + store)
        defer { watch.stop() }
        guard watch.waitForLine(1, within: 30) != nil, poll(within: 30, listening) else {
            throw BenchError("`plan --watch` on the \(kind) never printed its first plan, or never listened")
        }
        let idle = cpuSeconds(of: watch.pid, over: idleSeconds)
        var latencies: [Double] = []
        for index in 0..<changes {
            let seen = watch.lineCount
            set(index.isMultiple(of: 2) ? "0.9" : "0.8")
            let written = ContinuousClock.now
            guard let shown = watch.waitForLine(seen + 1, within: 10) else { throw BenchError("`plan --watch` missed change \(index + 1) of the \(kind)") }
            latencies.append(max(0, seconds(shown - written)))
        }
        let latency = latencies.sorted()[changes / 2]
        table.add(Row(figure: "`plan --watch`, \(kind): change → new plan \(formatted(latency))", baseline: "one `plan --json` \(formatted(plan))",
                      ratio: latency / plan, target: "≤ 1 s", met: latency <= 1))
        table.add(idleRow("`plan --watch`, \(kind)", idle))
    }

    /// The terminal UI on `store` in tmux, idle: its CPU over ``idleSeconds``; a line saying why
    /// there is no row when tmux is missing or the explorer never drew.
    private static func terminalUIIdle(_ binary: String, store: [String], kind: String, _ table: Table) {
        let server = "migration-bench-live-\(ProcessInfo.processInfo.processIdentifier)"
        guard BinaryBenchmark.tmux(server, ["-V"]) != nil else {
            return print("  (tmux is not installed: no idle figure for the terminal UI on the \(kind))")
        }
        defer { BinaryBenchmark.spawn("/usr/bin/env", ["tmux", "-L", server, "kill-server"]) }
        let command = (["exec", "env", "TERM=xterm-256color", binary] + store).map { "'\($0)'" }.joined(separator: " ")
        BinaryBenchmark.spawn("/usr/bin/env", ["tmux", "-L", server, "new-session", "-d", "-x", "100", "-y", "30", command])
        guard poll(within: 30, { BinaryBenchmark.tmux(server, ["capture-pane", "-p"])?.contains("pending") == true }),
              let pid = BinaryBenchmark.tmux(server, ["list-panes", "-F", "#{pane_pid}"]).flatMap({ pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        else { return print("  (the terminal UI on the \(kind) never drew in tmux: no idle figure)") }
        table.add(idleRow("terminal UI in tmux, \(kind)", cpuSeconds(of: pid, over: idleSeconds)))
    }

    private static func idleRow(_ what: String, _ cpu: Double) -> Row {
        // Counted in ticks (10 ms on Linux): seconds, not `formatted`'s nanoseconds for zero.
        Row(figure: String(format: "\(what): idle CPU %.2f s in \(Int(idleSeconds)) s", cpu), baseline: "\(Int(idleSeconds)) s of wall time",
            ratio: cpu / idleSeconds, target: "≤ 1% (no polling)", met: cpu / idleSeconds <= 0.01)
    }

    /// The CPU seconds (user + system, from `/proc/PID/stat`) process `pid` uses over `wall` seconds.
    private static func cpuSeconds(of pid: pid_t, over wall: Double) -> Double {
        let before = cpuTicks(of: pid)
        Thread.sleep(forTimeInterval: wall)
        return Double(cpuTicks(of: pid) - before) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// utime + stime: the 14th and 15th fields, counted after the command's closing parenthesis.
    private static func cpuTicks(of pid: pid_t) -> Int {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12 else { return 0 }
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }

    /// Whether `condition` holds within `seconds`, checked every 10 ms.
    private static func poll(within seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }
}

/// A child whose standard output is read on a thread of its own, noting when each line arrives.
private final class WatchedLines: Sendable {
    let pid: pid_t
    private let arrivals = Locked<[ContinuousClock.Instant]>([])

    init(_ path: String, _ arguments: [String]) throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw BenchError("no pipe: \(String(cString: strerror(errno)))") }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        guard let pid = startChild(path, arguments, output: ends[1]) else {
            close(ends[0])
            close(ends[1])
            throw BenchError("could not start \(path)")
        }
        close(ends[1])
        self.pid = pid
        let (reader, arrivals) = (ends[0], arrivals)
        Thread.detachNewThread {
            defer { close(reader) }
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                let now = ContinuousClock.now
                let lines = buffer[..<count].filter { $0 == UInt8(ascii: "\n") }.count
                arrivals.withLock { $0 += repeatElement(now, count: lines) }
            }
        }
    }

    var lineCount: Int { arrivals.withLock { $0.count } }

    /// When line `number` (from 1) arrived, waiting `seconds` at most for it.
    func waitForLine(_ number: Int, within seconds: Double) -> ContinuousClock.Instant? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        repeat {
            if let arrival = arrivals.withLock({ $0.count >= number ? $0[number - 1] : nil }) { return arrival }
            usleep(1_000)
        } while ContinuousClock.now < deadline
        return nil
    }

    /// Ends the child (SIGTERM, which `plan --watch` ends on) and reaps it.
    func stop() {
        kill(pid, SIGTERM)
        waitForChild(pid)
    }
}
