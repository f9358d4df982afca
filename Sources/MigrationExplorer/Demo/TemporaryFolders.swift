import Foundation
import MigrationCore

/// Folders the process made for itself and removes when it exits, however it exits through
/// `exit` (the command line, the terminal UI, a caught signal).
///
/// ```swift
/// TemporaryFolders.removeAtExit(folder)
/// ```
enum TemporaryFolders {
    private static let folders = Locked<[URL]>([])
    private static let registration: Void = { atexit { TemporaryFolders.removeAll() } }()

    static func removeAtExit(_ folder: URL) {
        _ = registration
        folders.withLock { $0.append(folder) }
    }

    private static func removeAll() {
        for folder in folders.value { try? FileManager.default.removeItem(at: folder) }
    }
}
