import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process that holds a store's lock file, as far as the system tells: on Linux,
/// `/proc/locks` names the process of each `flock`, and `/proc/<pid>` its command and start.
///
/// ```swift
/// if let holder = LockHolder.of(lockFile: "state.json.lock") {
///     print("held by \(holder)")  // held by pid 4242 (`migration-explorer run`, since 14:02:11)
/// }
/// ```
package struct LockHolder: Sendable, Equatable, CustomStringConvertible {
    /// The holding process.
    package let pid: Int32
    /// Its program's name and first argument (`migration-explorer run`); `nil` when unknown.
    package let command: String?
    /// When the holding process started; `nil` when unknown.
    package let since: Date?

    package init(pid: Int32, command: String?, since: Date?) {
        self.pid = pid
        self.command = command
        self.since = since
    }

    /// `pid 4242 (`migration-explorer run`, since 14:02:11)`, in local time.
    package var description: String {
        let details = [command.map { "`\($0)`" }, since.map { "since " + Self.clock.string(from: $0) }].compactMap { $0 }
        return "pid \(pid)" + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
    }

    private static let clock: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm:ss"
        return formatter
    }()

    /// The other process holding a `flock` on `lockFile`; `nil` when there is none, or the
    /// system does not tell (any platform but Linux). `/proc/locks` names the process that took
    /// the lock; when that one is gone (a run killed with SIGKILL) and a process it started
    /// still holds the lock through an inherited descriptor (its command), the process that has
    /// the file open and started first is named instead.
    package static func of(lockFile: String) -> LockHolder? {
        #if os(Linux)
        var info = stat()
        guard stat(lockFile, &info) == 0, let locks = readWhole("/proc/locks") else { return nil }
        let (device, inode) = (UInt64(info.st_dev), UInt64(info.st_ino))
        guard let pid = holderPID(inLocks: locks, device: device, inode: inode, excluding: getpid()) else { return nil }
        if kill(pid, 0) == 0 || errno != ESRCH { return LockHolder(pid: pid, command: command(of: pid), since: startTime(of: pid)) }
        return openers(device: device, inode: inode).min { ($0.since ?? .distantFuture, $0.pid) < ($1.since ?? .distantFuture, $1.pid) }
        #else
        return nil
        #endif
    }

    #if os(Linux)
    /// The processes other than this one with the file of `device` and `inode` open.
    private static func openers(device: UInt64, inode: UInt64) -> [LockHolder] {
        let ours = getpid()
        guard let processes = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return processes.compactMap(Int32.init).filter { $0 != ours }.compactMap { pid in
            let folder = "/proc/\(pid)/fd"
            guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
            let opens = descriptors.contains { descriptor in
                var target = stat()
                return stat("\(folder)/\(descriptor)", &target) == 0 && UInt64(target.st_dev) == device && UInt64(target.st_ino) == inode
            }
            return opens ? LockHolder(pid: pid, command: command(of: pid), since: startTime(of: pid)) : nil
        }
    }
    #endif

    /// The other process holding an open-file-description lock (Linux's `F_OFD_SETLK`) on
    /// `byte` of `file`: a block of a SQLite database, held by a run or by the command of a
    /// killed one. `/proc/locks` names no process for such a lock; the holder is the process
    /// whose open descriptor carries it (`/proc/<pid>/fdinfo`). A run and the command it
    /// started share the lock: the one that started first (the run, or the orphaned command of a
    /// killed one) is named. `nil` when there is none, or the system does not tell.
    package static func of(byte: Int64, of file: String) -> LockHolder? {
        #if os(Linux)
        var info = stat()
        guard stat(file, &info) == 0 else { return nil }
        let lockedFile = fileName(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        let ours = getpid()
        guard let processes = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        var holders: [LockHolder] = []
        for pid in processes.compactMap(Int32.init) where pid != ours {
            let folder = "/proc/\(pid)/fdinfo"
            guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for descriptor in descriptors {
                guard let text = readWhole("\(folder)/\(descriptor)"), text.contains("OFDLCK") else { continue }
                let holds = text.split(separator: "\n").contains { line in
                    let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                    return fields.count >= 8 && fields.contains("OFDLCK") && fields[fields.count - 3] == Substring(lockedFile)
                        && fields[fields.count - 2] == Substring(String(byte))
                }
                if holds {
                    holders.append(LockHolder(pid: pid, command: command(of: pid), since: startTime(of: pid)))
                    break
                }
            }
        }
        return holders.min { ($0.since ?? .distantFuture, $0.pid) < ($1.since ?? .distantFuture, $1.pid) }
        #else
        return nil
        #endif
    }

    /// How `/proc/locks` names a file: `fe:00:16220847` (major, minor, inode).
    private static func fileName(device: UInt64, inode: UInt64) -> String {
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
        let minor = (device & 0xff) | ((device >> 12) & ~0xff)
        return String(format: "%02llx:%02llx:%llu", major, minor, inode)
    }

    /// The first process, other than `excluding`, holding (not waiting for) a `flock` on the
    /// file with `device` and `inode`, in the text of `/proc/locks`:
    /// `1: FLOCK  ADVISORY  WRITE 4242 fe:00:16220847 0 EOF` (a waiter's line has `->`).
    package static func holderPID(inLocks locks: String, device: UInt64, inode: UInt64, excluding: Int32) -> Int32? {
        let file = fileName(device: device, inode: inode)
        for line in locks.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] == "FLOCK", fields[5] == Substring(file), let pid = Int32(fields[4]), pid != excluding else { continue }
            return pid
        }
        return nil
    }

    /// The whole text of a file the kernel makes as it is read (`/proc/locks`), which reports
    /// a size of 0: read until its end, a page at a time.
    package static func readWhole(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var page = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = page.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? String(decoding: bytes, as: UTF8.self) : nil }
            bytes += page[..<count]
        }
    }

    /// The program's name and its first argument, when that is not an option.
    private static func command(of pid: Int32) -> String? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
        let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        guard let program = arguments.first.map({ URL(fileURLWithPath: $0).lastPathComponent }), !program.isEmpty else { return nil }
        guard let first = arguments.dropFirst().first, !first.hasPrefix("-") else { return program }
        return program + " " + first
    }

    /// When the process started: its start in clock ticks after boot (`/proc/<pid>/stat`, field
    /// 22) plus the boot time (`/proc/stat`'s `btime`).
    private static func startTime(of pid: Int32) -> Date? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let system = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
              let afterName = stat.range(of: ")", options: .backwards) else { return nil }
        // Fields after the name, which may hold spaces: state is field 3, start time field 22.
        let fields = stat[afterName.upperBound...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]),
              let boot = system.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }).flatMap({ Double($0.dropFirst(6)) })
        else { return nil }
        return Date(timeIntervalSince1970: boot + ticks / Double(sysconf(Int32(_SC_CLK_TCK))))
    }
}
