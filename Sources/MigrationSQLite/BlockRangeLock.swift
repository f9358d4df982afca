import Foundation
import MigrationCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A block's lock across processes on one database file, which a block's shell command
/// inherits, so that it outlives a killed runner as long as the command does: the next run
/// waits for the orphaned command instead of starting the block again beside it.
///
/// SQLite's own locks (POSIX `fcntl` locks, on the database from 1 GiB up and on the `-shm`
/// file) belong to the process and end with it; this one is an open-file-description lock
/// (Linux's `F_OFD_SETLK`) on one byte of the database far above any byte SQLite locks (from
/// 2⁶² up, chosen by the domain and block), so it neither waits for SQLite's locks nor
/// makes SQLite wait, and no file is added beside the database. It belongs to the open file,
/// which a child inherits with the descriptor. The descriptor stays open as long as the
/// process: closing it would drop the process's POSIX locks on the file, SQLite's among them.
///
/// Threads of one process share the hold (a byte locked by the process's own descriptor is
/// the process's); SQLite's write lock keeps them apart as it did. On systems without
/// open-file-description locks (Apple's) it holds nothing across processes.
final class BlockRangeLock: Sendable {
    let path: String
    /// The process's descriptor on the database (-1 until a block opens it), and how many
    /// holds this process has on each locked byte.
    private let state = Locked<(descriptor: Int32, holds: [Int64: Int])>((-1, [:]))

    /// The first byte of the range the blocks' bytes are chosen in: far above SQLite's lock
    /// bytes (1 GiB), which stay where they are whatever the database's size.
    static let firstByte: Int64 = 1 << 62

    init(path: String) { self.path = path }

    /// The byte that stands for `block` of `domain`: the same in every process.
    static func byte(of block: String, in domain: String) -> Int64 {
        // FNV-1a, 64 bits: stable across processes and runs, unlike `Hasher`.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (domain + "\u{0}" + block).utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return firstByte + Int64(hash % (1 << 40))
    }

    /// Runs `body` holding `block` of `domain` across processes, waiting for another
    /// process's hold (a run, or the command of a killed one) as `policy` allows.
    /// - Throws: `MigrationStoreError` (busy when its patience ran out, naming the holder; unlockable
    ///   when the database cannot be opened or locked), or what `body` throws.
    func withLock<T>(_ block: String, in domain: String, waiting policy: LockWaiting.Policy, location: String, _ body: () throws -> T) throws -> T {
        #if os(Linux)
        let byte = Self.byte(of: block, in: domain)
        if try enter(byte, waiting: policy, location: location) {
            defer { leave(byte) }
            return try body()
        }
        #endif
        return try body()
    }

    /// The descriptor holding the lock while some thread of this process is inside
    /// ``withLock(_:in:waiting:location:_:)``, for a shell command to inherit; `nil` otherwise.
    var heldDescriptor: Int32? {
        state.withLock { $0.holds.isEmpty ? nil : $0.descriptor }
    }

    #if os(Linux)
    private func enter(_ byte: Int64, waiting policy: LockWaiting.Policy, location: String) throws -> Bool {
        guard let descriptor = try openedDescriptor(location: location) else { return false }
        while true {
            try wait(for: byte, on: descriptor, waiting: policy, location: location)
            // Counted under the mutex, where a release of the byte by another thread of this
            // process cannot come between: taking it again (at once, as it is ours) proves it
            // is still held.
            let taken = state.withLock { state in
                guard state.holds[byte] != nil || (try? Self.lock(byte, on: descriptor, waiting: false)) == true else { return false }
                state.holds[byte, default: 0] += 1
                return true
            }
            if taken { return true }
        }
    }

    private func leave(_ byte: Int64) {
        state.withLock { state in
            state.holds[byte, default: 1] -= 1
            guard state.holds[byte] == 0 else { return }
            state.holds[byte] = nil
            var range = Self.range(byte, type: F_UNLCK)
            _ = fcntl(state.descriptor, Self.setLock, &range)
        }
    }

    /// The process's descriptor on the database, opened (and the file created, as SQLite
    /// creates a database) by the first block; `nil` for a database this process may not
    /// write, where no block can record anything and the store says why.
    private func openedDescriptor(location: String) throws(MigrationStoreError) -> Int32? {
        try state.withLock { (state) throws(MigrationStoreError) -> Int32? in
            if state.descriptor >= 0 { return state.descriptor }
            let opened = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            if opened < 0, [EACCES, EPERM, EROFS].contains(errno) { return nil }
            guard opened >= 0 else {
                throw MigrationStoreError(location: location, problem: .unlockable("cannot open \(path) to lock a block: \(String(cString: strerror(errno)))"))
            }
            state.descriptor = opened
            return opened
        }
    }

    /// Takes `byte`, at once when it is free, otherwise after telling `policy` who holds it
    /// and waiting as its patience allows.
    private func wait(for byte: Int64, on descriptor: Int32, waiting policy: LockWaiting.Policy, location: String) throws {
        if try Self.lock(byte, on: descriptor, waiting: false, location: location) { return }
        let (patience, onChange) = (policy.patience, policy.onChange)
        let holder = LockHolder.of(byte: byte, of: path)
        guard let limit = patience.limit else {
            onChange?(.waiting(holder))
            _ = try Self.lock(byte, on: descriptor, waiting: true, location: location)
            onChange?(.acquired)
            return
        }
        if limit > .zero { onChange?(.waiting(holder)) }
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            if try Self.lock(byte, on: descriptor, waiting: false, location: location) {
                onChange?(.acquired)
                return
            }
        }
        let named = LockHolder.of(byte: byte, of: path) ?? holder
        throw MigrationStoreError(location: location, problem: .busy("held by \(named?.description ?? "another process"), in a block (a run's, or the command of a killed run); \(patience.gaveUp)"))
    }

    private static let setLock = Int32(37)        // F_OFD_SETLK
    private static let setLockWaiting = Int32(38) // F_OFD_SETLKW

    /// One lock call on `byte`, repeated when a signal interrupts a wait; whether it was taken.
    @discardableResult
    private static func lock(_ byte: Int64, on descriptor: Int32, waiting: Bool, location: String = "") throws -> Bool {
        var range = range(byte, type: F_WRLCK)
        while fcntl(descriptor, waiting ? setLockWaiting : setLock, &range) != 0 {
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EACCES { return false }
            throw MigrationStoreError(location: location, problem: .unlockable("cannot lock a block of the database: \(String(cString: strerror(errno)))"))
        }
        return true
    }

    private static func range(_ byte: Int64, type: Int32) -> flock {
        var range = flock()
        range.l_type = Int16(type)
        range.l_whence = Int16(SEEK_SET)
        range.l_start = .init(byte)
        range.l_len = 1
        range.l_pid = 0
        return range
    }
    #endif
}
