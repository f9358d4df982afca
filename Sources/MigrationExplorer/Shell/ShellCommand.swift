import Foundation
import MigrationCore
import Subprocess
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A manifest's `run`: a command run with `/bin/sh -c` in the manifest's folder, through
/// swift-subprocess, in a process group of its own.
///
/// - Its environment adds `MIGRATION_VERSION` (or `MIGRATION_BUILD`), `MIGRATION_FROM`,
///   `MIGRATION_UPGRADE_FROM` (the device's version when the upgrade started),
///   `MIGRATION_TO`, `MIGRATION_SANDBOX` (`1` or `0`), `MIGRATION_STORE` (the store's
///   path, or `memory`) and `MIGRATION_INTERRUPTED_ATTEMPTS` (how many earlier attempts of
///   the migration were interrupted at this build). It inherits the rest of this process's environment, but for the
///   store's secret (``CommandSettings/withheldVariables``: `PGPASSWORD` when it is the
///   PostgreSQL store's password).
/// - Output (standard output and error together) is streamed to
///   ``CommandSettings/onOutput`` and kept, capped, in the migration's log.
/// - The command is finished when its shell exits, noticed at once (swift-subprocess waits
///   on the process; nothing polls). What the shell left running in its group is then sent
///   SIGTERM (SIGKILL after the grace period), and the migration ends once the group is gone.
/// - Against a real store it inherits, as descriptor 7, what holds the step's lock (a file
///   store's locked file, a SQLite database's block lock, a PostgreSQL store's connection;
///   see ``RealStore/lockDescriptor``): the lock then lasts as long as the shell and what it
///   starts, even if this process is killed, and no second run starts the step meanwhile.
///   swift-subprocess closes every descriptor above standard error in the child, so the lock
///   comes in as standard input and the shell moves it to 7 before the command, whose standard
///   input is then `/dev/null`.
/// - A non-zero exit, a signal or a timeout fails the migration; a cancellation of the run
///   stops it unrecorded (`CancellationError`), so that it runs again next time.
///
/// ```swift
/// let command = ShellCommand(command: "./scripts/add-guids.sh", folder: manifestFolder,
///                            identity: ("MIGRATION_VERSION", "0.9"), timeout: .seconds(60))
/// try command.run(context)
/// ```
struct ShellCommand: Sendable {
    let command: String
    let folder: URL
    /// `MIGRATION_VERSION` or `MIGRATION_BUILD` and its value; none for hooks.
    let identity: (name: String, value: String)?
    /// The manifest's `timeout`; `nil`: the run's, if any.
    let timeout: Duration?

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs the command to its end, logging its output into `context`.
    /// - Throws: ``Failure`` when it could not start, failed or timed out; `CancellationError`
    ///   when the run was cancelled.
    func run(_ context: MigrationContext) throws {
        let settings = CommandSettings.current
        if settings.cancellation?.cancellationReason != nil { throw CancellationError() }
        let lock = settings.lockedStore?.lockDescriptor
        settings.onCommandStart(identity.map { "\($0.value) `\(command)`" } ?? "`\(command)`")
        let environment = environment(context, settings: settings)
        let (status, stopReason, output) = try blocking { [self] in
            try await execute(environment: environment, lock: lock, settings: settings)
        }
        output.lines.forEach(context.log)
        // Stopped by the run's cancellation: not a failure of the migration, so nothing is
        // recorded for it and it runs again next time (as a cancelled Swift body).
        if status != .exited(0), settings.cancellation?.cancellationReason != nil { throw CancellationError() }
        if let stopReason { throw Failure(description: stopReason) }
        switch status {
        case .exited(0): return
        case .exited(let code): throw Failure(description: "`\(command)` exited with status \(code)")
        case .signaled(let signal): throw Failure(description: "`\(command)` was killed by signal \(signal)")
        }
    }

    private func environment(_ context: MigrationContext, settings: CommandSettings) -> Environment {
        var values: [Environment.Key: String?] = [
            "MIGRATION_FROM": context.from ?? "", "MIGRATION_UPGRADE_FROM": context.upgradingFrom ?? "", "MIGRATION_TO": context.to,
            "MIGRATION_SANDBOX": settings.sandbox ? "1" : "0", "MIGRATION_STORE": settings.storeName,
            "MIGRATION_INTERRUPTED_ATTEMPTS": String(context.interruptedAttempts),
        ]
        if let identity, let key = Environment.Key(rawValue: identity.name) { values[key] = identity.value }
        for name in settings.withheldVariables {
            if let key = Environment.Key(rawValue: name) { values[key] = .some(nil) }
        }
        return .inherit.updating(values)
    }

    private func execute(
        environment: Environment, lock: Int32?, settings: CommandSettings
    ) async throws -> (TerminationStatus, String?, CappedOutput) {
        ProcessGroup.adoptOrphans()
        let pipe = try Self.makePipe()
        let reader: OutputReader
        do { reader = try OutputReader(descriptor: pipe.read, output: CappedOutput(onLine: settings.onOutput)) } catch {
            close(pipe.read)
            close(pipe.write)
            throw Failure(description: "`\(command)` did not start: \(error)")
        }
        let input: FileDescriptorInput = if let lock {
            .fileDescriptor(.init(rawValue: lock), closeAfterSpawningProcess: false)
        } else {
            .fileDescriptor(.init(rawValue: try Self.openNullDevice()), closeAfterSpawningProcess: true)
        }
        var options = PlatformOptions()
        options.processGroupID = 0
        let limit = timeout ?? settings.timeout
        let result: (status: TerminationStatus, running: RunningCommand, timer: CommandTimers.Timer?)
        do {
            let execution = try await Subprocess.run(
                .path("/bin/sh"), arguments: ["-c", lock == nil ? command : Self.inheritingLock + command], environment: environment,
                workingDirectory: .init(folder.path), platformOptions: options,
                input: input, output: .fileDescriptor(.init(rawValue: pipe.write), closeAfterSpawningProcess: true),
                error: .combinedWithOutput
            ) { execution in
                let running = RunningCommand(group: ProcessGroup(id: execution.processIdentifier.value), grace: settings.grace)
                settings.cancellation?.register(running)
                let timer = limit.map { limit in
                    CommandTimers.after(limit) { running.stop(reason: "timed out after \(limit.secondsText) s") }
                }
                return (running, timer)
            }
            result = (execution.terminationStatus, execution.closureResult.0, execution.closureResult.1)
        } catch {
            _ = reader.finish()
            throw Failure(description: "could not start /bin/sh in \(folder.path): \(error)")
        }
        let running = result.running
        result.timer?.cancel()
        running.shellDidExit()
        settings.cancellation?.unregister(running)
        await running.group.end(grace: settings.grace)
        return (result.status, running.stopReason, reader.finish())
    }

    /// What the shell runs before the command against a real store: the lock, given as
    /// standard input, moved to descriptor 7, and standard input made `/dev/null`. On the
    /// command's first line, so the shell's line numbers in its messages stay the command's.
    static let inheritingLock = "exec 7<&0 </dev/null; "

    /// A pipe whose two ends are closed on exec, so no other child inherits them.
    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw Failure(description: "cannot create a pipe: \(String(cString: strerror(errno)))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    private static func openNullDevice() throws -> Int32 {
        let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(description: "cannot open /dev/null: \(String(cString: strerror(errno)))") }
        return descriptor
    }
}
