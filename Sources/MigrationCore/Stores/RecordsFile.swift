import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file of a ``FileMigrationStore``: how it is laid out, read, appended to and compacted.
///
/// Format 2 holds one JSON object a line:
/// ```
/// {"format":2,"compactedBytes":312}
/// {"domain":"default","records":[…]}                              the history when compacted
/// {"domain":"default","marks":{"historyIsComplete":true,…}}       the marks when compacted
/// {"domain":"default","marks":{…},"records":[{…}]}                a step: the marks after it, its record
/// {"domain":"default","started":[{…}]}                            the migrations' recorded starts
/// {"domain":"default","marks":{…},"records":[{…}],"started":[…]}  a step that takes its start back
/// ```
/// A step appends one line and flushes it (one `fdatasync`), so its cost does not grow with
/// the history. A domain's marks are those of its last line with marks; its history is its
/// records in file order. A last line without its newline is a write that was cut short and
/// never acknowledged; it is ignored. Once the lines appended since the last compaction
/// outgrow what it wrote (and 64 KB), the next step rewrites the file (atomic replace) with
/// each history bounded by ``MigrationRule/boundedHistory(_:)``.
///
/// Format 1, one JSON document (`format`, `domains`, each a state with its history), is read
/// as before and rewritten as format 2 by the first write.
struct RecordsFile: Sendable {
    /// The file's path, every symbolic link resolved.
    let path: String
    /// The store's location, for errors.
    let location: String

    init(path: String, location: String) {
        self.path = path
        self.location = location
    }

    /// The file, for the writes that take a URL.
    private var url: URL { URL(fileURLWithPath: path) }

    /// Every domain's state, every line checked; no domain when the file does not exist.
    func read() throws -> [String: MigrationState] {
        guard let data = try contents() else { return [:] }
        guard Self.isLines(data) else { return try LegacyDocument.decode(data, location: location) }
        var domains: [String: MigrationState] = [:]
        let lines = Self.completeLines(data)
        try checkHeader(lines.first ?? Data())
        for (number, text) in lines.enumerated().dropFirst() {
            let line = try decode(Line.self, text, number: number + 1)
            var state = domains[line.domain] ?? .freshInstall
            if let marks = line.marks { marks.apply(to: &state) }
            if let records = line.records { state.history.append(contentsOf: records) }
            if let attempts = line.attempts { state.attempts = attempts }
            domains[line.domain] = state
        }
        return domains
    }

    /// The marks of `domain` alone, read from its last line with marks: what every launch
    /// reads. Only the end of the file is read (more only when the domain's last marks are
    /// further back), and the history is left unread, so the state has none. `nil` when
    /// nothing is recorded.
    func readMarks(of domain: String) throws -> MigrationState? {
        let prefix = try Self.domainPrefix(of: domain) + Array(",\"marks\":".utf8)
        switch try lastLine(where: { $0.starts(with: prefix) }) {
        case .legacy(let domains): return domains[domain]
        case .none: return nil
        case .found(let line):
            var state = MigrationState()
            if let plain = PlainMarksObject.parse(line.dropFirst(prefix.count)) {
                Marks(values: plain.values, historyIsComplete: plain.historyIsComplete).apply(to: &state)
                return state
            }
            guard let marks = try? JSONDecoder.migrationRecords.decode(Line.self, from: line).marks,
                  StrictJSON.problem(in: line) == nil else {
                _ = try read()  // names the line and what is wrong with it
                throw MigrationStoreError(location: location, problem: .corrupt("the marks of \"\(domain)\" cannot be read"))
            }
            marks.apply(to: &state)
            return state
        }
    }

    /// The attempts of `domain` alone, from its last line with attempts: what a step reads,
    /// from the end of the file, so that it costs the same however long the history is.
    func readAttempts(of domain: String) throws -> [MigrationAttempt] {
        let prefix = try Self.domainPrefix(of: domain)
        // The attempts' key sorts last, and a string value never holds it unescaped.
        let key = Data(",\"started\":".utf8)
        switch try lastLine(where: { $0.starts(with: prefix) && $0.range(of: key) != nil }) {
        case .legacy(let domains): return domains[domain]?.attempts ?? []
        case .none: return []
        case .found(let line):
            guard let attempts = try? JSONDecoder.migrationRecords.decode(Line.self, from: line).attempts,
                  StrictJSON.problem(in: line) == nil else {
                _ = try read()  // names the line and what is wrong with it
                throw MigrationStoreError(location: location, problem: .corrupt("the attempts of \"\(domain)\" cannot be read"))
            }
            return attempts
        }
    }

    /// What ``lastLine(where:)`` found.
    private enum LastLine {
        case found(Data)
        case none
        /// A file in format 1, read whole.
        case legacy([String: MigrationState])
    }

    /// The last complete line that `matches`, found from the end of the file: only its end is
    /// read (more only when the line is further back). A file in format 1 is read whole.
    private func lastLine(where matches: (Data) -> Bool) throws -> LastLine {
        // Without blocking: a FIFO is refused below, never waited on.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return .none }
            throw MigrationStoreError(location: location, problem: .unreadable(errnoText()))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw MigrationStoreError(location: location, problem: .unreadable(errnoText())) }
        let kind = FileKind(mode: info.st_mode)
        if kind != .regularFile { throw unreadable(.notAFile(kind)) }
        let size = Int(info.st_size)
        let head = Self.bytes(of: descriptor, from: 0, count: min(size, 128))
        // The header's start says format 2; every other read checks the rest of it.
        guard Self.isLines(head) else { return .legacy(try LegacyDocument.decode(try contents() ?? Data(), location: location)) }
        var window = 64 * 1024
        while true {
            let start = max(0, size - window)
            let chunk = Self.bytes(of: descriptor, from: start, count: size - start)
            if let line = Self.lastCompleteLine(in: chunk, startsALine: start == 0, where: matches) { return .found(line) }
            if start == 0 { return .none }
            window *= 4
        }
    }

    /// Appends one step: `marks` for `domain` and the `records` it added, flushed before it
    /// returns. Returns `false`, having written nothing, when the file must be rewritten
    /// instead: it is missing, in format 1, ends in a cut-short line or is due for compaction.
    func append(domain: String, marks: MigrationState, records: [MigrationRecord], attempts: [MigrationAttempt]? = nil) throws -> Bool {
        try append(Line(domain: domain, marks: Marks(marks), records: records, attempts: attempts))
    }

    /// Appends `domain`'s attempts (see ``MigrationAttempt``), all of them, flushed before it
    /// returns; `false`, having written nothing, when the file must be rewritten instead.
    func append(domain: String, attempts: [MigrationAttempt]) throws -> Bool {
        try append(Line(domain: domain, marks: nil, records: nil, attempts: attempts))
    }

    /// Appends `line` and flushes it; `false`, having written nothing, when the file must be
    /// rewritten instead.
    private func append(_ line: Line) throws -> Bool {
        let descriptor = open(path, O_RDWR | O_APPEND | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return false }
            throw MigrationStoreError(location: location, problem: .unwritable("open: \(errnoText())"))
        }
        defer { close(descriptor) }
        guard let size = Self.appendableSize(descriptor) else { return false }
        return try append(line, to: descriptor, size: size)
    }

    /// Writes `line` at the end of the file open as `descriptor`, whose size is `size`, and
    /// flushes it; cut back to `size` when that fails.
    private func append(_ line: Line, to descriptor: Int32, size: Int) throws -> Bool {
        let line = try encodeLine(line)
        if let failure = AtomicFile.writeAll(line, to: descriptor, path: path) ?? Self.flush(descriptor) {
            _ = ftruncate(descriptor, off_t(size))
            throw MigrationStoreError(location: location, problem: .unwritable(failure))
        }
        return true
    }

    /// Whether the next step can append its line now: the file takes appends (see
    /// ``append(domain:marks:records:)``), opens for writing and its disk has room for a line.
    func canAppend() -> Bool {
        let descriptor = open(path, O_RDWR | O_APPEND | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var disk = statvfs()
        guard fstatvfs(descriptor, &disk) == 0, Int(disk.f_bavail) * Int(disk.f_frsize) >= Self.growthAllowance else { return false }
        return Self.appendableSize(descriptor) != nil
    }

    /// Replaces the file with `domains`, one records line and one marks line each, in a
    /// compact form; with `bounded`, each history as ``MigrationRule/boundedHistory(_:)`` keeps it.
    func rewrite(_ domains: [String: MigrationState], bounded: Bool) throws {
        var body = Data()
        for name in domains.keys.sorted() {
            var state = domains[name]!
            if bounded {
                let (kept, complete) = MigrationRule.boundedHistory(state.history)
                state.history = kept
                if !complete { state.historyIsComplete = false }
            }
            if !state.history.isEmpty { body.append(try encodeLine(Line(domain: name, marks: nil, records: state.history))) }
            if !state.attempts.isEmpty { body.append(try encodeLine(Line(domain: name, marks: nil, records: nil, attempts: state.attempts))) }
            body.append(try encodeLine(Line(domain: name, marks: Marks(state), records: nil)))
        }
        var data = Data("{\"format\":\(Self.format),\"compactedBytes\":\(body.count)}\n".utf8)
        data.append(body)
        do { try AtomicFile.replace(url, with: data) } catch {
            throw MigrationStoreError(location: location, problem: .unwritable(String(describing: error)))
        }
    }

    // MARK: Layout

    static let format = 2
    private static let headerStart = Array("{\"format\":2,".utf8)
    /// Appended lines may outgrow the compacted ones by this much before a compaction is due.
    private static let growthAllowance = 64 * 1024

    private static func isLines(_ data: Data) -> Bool { data.starts(with: headerStart) }

    /// The lines up to the last newline; a cut-short last line is left out.
    private static func completeLines(_ data: Data) -> [Data] {
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        lines.removeLast()
        return lines
    }

    /// The last complete line of `chunk` that starts with `prefix`, found from the end without
    /// splitting the rest; the first line counts only when `chunk` `startsALine` (a chunk read
    /// from the middle of the file may begin mid-line).
    private static func lastCompleteLine(in chunk: Data, startsALine: Bool, where matches: (Data) -> Bool) -> Data? {
        let newline = UInt8(ascii: "\n")
        guard var end = chunk.lastIndex(of: newline) else { return nil }
        while true {
            let previous = chunk[..<end].lastIndex(of: newline)
            guard previous != nil || startsALine else { return nil }
            let start = previous.map { $0 + 1 } ?? chunk.startIndex
            if matches(chunk[start..<end]) { return chunk[start..<end] }
            guard let previous else { return nil }
            end = previous
        }
    }

    /// How a domain's lines start, as ``encodeLine(_:)`` writes them. A name of
    /// printable ASCII without `"`, `\\` or `/` is written as it is; any other is encoded.
    /// Bytes rather than `Data`, for the launch fast path (see ``LaunchCheck``).
    private static func domainPrefix(of domain: String) throws -> [UInt8] {
        var prefix = Array("{\"domain\":".utf8)
        if domain.utf8.allSatisfy({ (0x20...0x7E).contains($0) && !"\"\\/".utf8.contains($0) }) {
            prefix += "\"\(domain)\"".utf8
        } else {
            prefix += try JSONEncoder.migrationLines.encode(domain)
        }
        return prefix
    }

    /// The file's size when a line can be appended to it now: it is in format 2, ends with a
    /// newline, and its appended lines have not outgrown its compacted ones.
    private static func appendableSize(_ descriptor: Int32) -> Int? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        let size = Int(info.st_size)
        var head = [UInt8](repeating: 0, count: 64)
        let headLength = pread(descriptor, &head, head.count, 0)
        var last: UInt8 = 0
        guard headLength > 0, head.starts(with: headerStart), pread(descriptor, &last, 1, off_t(size - 1)) == 1,
              last == UInt8(ascii: "\n"),
              let headerEnd = head.firstIndex(of: UInt8(ascii: "\n")), headerEnd < headLength,
              let compacted = compactedBytes(head[..<headerEnd]) else { return nil }
        return size - headerEnd - 1 <= 2 * compacted + growthAllowance ? size : nil
    }

    /// The `compactedBytes` of a header line.
    private static func compactedBytes(_ header: ArraySlice<UInt8>) -> Int? {
        (try? JSONDecoder().decode(Header.self, from: Data(header)))?.compactedBytes
    }

    private static func flush(_ descriptor: Int32) -> String? {
        #if canImport(Darwin)
        // Darwin's fsync does not reach the platters; F_FULLFSYNC does.
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return nil }
        return fsync(descriptor) == 0 ? nil : "fsync: \(errnoText())"
        #else
        return fdatasync(descriptor) == 0 ? nil : "fdatasync: \(errnoText())"
        #endif
    }

    // MARK: Reading and writing lines

    /// Up to `count` bytes of the file from `offset`.
    private static func bytes(of descriptor: Int32, from offset: Int, count: Int) -> Data {
        var data = Data(count: count)
        let read = data.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
        data.count = max(0, read)
        return data
    }

    /// The file's bytes; `nil` only when there is no such file (a fresh install): a file that
    /// cannot be reached (a loop of symbolic links, a folder that cannot be searched) is an
    /// error, and so is a directory, a FIFO or a device (see ``RegularFile``).
    private func contents() throws(MigrationStoreError) -> Data? {
        do { return try RegularFile.contents(at: path) } catch { throw unreadable(error) }
    }

    private func unreadable(_ error: RegularFile.ReadError) -> MigrationStoreError {
        MigrationStoreError(location: location, problem: .unreadable(error.reason(for: path)))
    }

    private func checkHeader(_ line: some Sequence<UInt8>) throws {
        let header = try decode(Header.self, Data(line), number: 1)
        guard header.format == Self.format else {
            throw MigrationStoreError(location: location, problem: .corrupt("format \(header.format) is not \(Self.format); written by another release?"))
        }
    }

    private func decode<T: Decodable>(_ type: T.Type, _ line: Data, number: Int) throws -> T {
        if let problem = StrictJSON.problem(in: line) {
            throw MigrationStoreError(location: location, problem: .corrupt("line \(number): \(problem)"))
        }
        do { return try JSONDecoder.migrationRecords.decode(type, from: line) } catch {
            throw MigrationStoreError(location: location, problem: .corrupt("line \(number): \(LegacyDocument.describe(error))"))
        }
    }

    private func encodeLine(_ line: Line) throws -> Data {
        do {
            var data = try JSONEncoder.migrationLines.encode(line)
            data.append(UInt8(ascii: "\n"))
            return data
        } catch {
            throw MigrationStoreError(location: location, problem: .unwritable(String(describing: error)))
        }
    }

    private struct Header: Decodable {
        let format: Int
        let compactedBytes: Int

        init(from decoder: any Decoder) throws {
            let container = try decoder.strictContainer(known: ["format", "compactedBytes"])
            format = try container.required(Int.self, "format")
            compactedBytes = try container.required(Int.self, "compactedBytes")
        }
    }

    /// One line after the header: a domain's marks, records, or both; or its attempts.
    private struct Line: Codable {
        let domain: String
        let marks: Marks?
        let records: [MigrationRecord]?
        let attempts: [MigrationAttempt]?

        init(domain: String, marks: Marks?, records: [MigrationRecord]?, attempts: [MigrationAttempt]? = nil) {
            self.domain = domain
            self.marks = marks
            self.records = records
            self.attempts = attempts
        }

        /// The attempts' key sorts after the others, so that a line with marks still starts
        /// with them (see ``readMarks(of:)``).
        private enum CodingKeys: String, CodingKey {
            case domain, marks, records
            case attempts = "started"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.strictContainer(known: ["domain", "marks", "records", "started"])
            domain = try container.required(String.self, "domain")
            marks = try container.optional(Marks.self, "marks")
            records = try container.optional([MigrationRecord].self, "records")
            attempts = try container.optional([MigrationAttempt].self, "started")
        }
    }

    /// The four marks and whether the history is complete.
    private struct Marks: Codable {
        let values: [String?]
        let historyIsComplete: Bool

        init(values: [String?], historyIsComplete: Bool) {
            self.values = values
            self.historyIsComplete = historyIsComplete
        }

        init(_ state: MigrationState) {
            values = RecordedMark.allCases.map { state[$0] }
            historyIsComplete = state.historyIsComplete
        }

        func apply(to state: inout MigrationState) {
            for mark in RecordedMark.allCases { state[mark] = values[mark.index] }
            state.historyIsComplete = historyIsComplete
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.strictContainer(known: Set(RecordedMark.allCases.map(\.rawValue) + ["historyIsComplete"]))
            values = try RecordedMark.allCases.map { try container.optional(String.self, $0.rawValue) }
            historyIsComplete = try container.required(Bool.self, "historyIsComplete")
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for mark in RecordedMark.allCases { try container.encodeIfPresent(values[mark.index], forKey: AnyCodingKey(mark.rawValue)) }
            try container.encode(historyIsComplete, forKey: AnyCodingKey("historyIsComplete"))
        }
    }
}
