import Foundation
import MigrationTestSupport
import Testing
@testable import MigrationCore

/// A store's path that names something other than a file (a FIFO, a device): the store says
/// what it found, at once, without reading it or replacing it.
@Suite("Store paths that are not files", .onThreadOfItsOwn)
struct NotAFileStoreTests {
    @Test("a FIFO at the store's path is refused at once, never waited on", arguments: PlantedLinkTests.Kind.allCases)
    func aFIFOIsRefusedAtOnce(kind: PlantedLinkTests.Kind) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(kind.file).path
        try #require(mkfifo(path, 0o600) == 0)
        // Held open for writing, a read of the FIFO waits for bytes that never come; closed, it
        // ends such a read, so a store that reads it cannot keep the test waiting.
        let writer = open(path, O_RDWR | O_CLOEXEC)
        try #require(writer >= 0)
        let store = kind.store(at: URL(fileURLWithPath: path))
        let outcome = Locked<Result<MigrationState, any Error>?>(nil)
        Thread.detachNewThread {
            // The marks alone, as a launch reads them.
            let result = Result { try store.loadMarks() }
            outcome.withLock { $0 = result }
        }

        let answeredAtOnce = await waitUntil(timeout: 5) { outcome.value != nil }
        close(writer)
        try await #require(waitUntil(timeout: 30) { outcome.value != nil })

        #expect(answeredAtOnce, "the store waited on the FIFO")
        let error = try #require(throws: MigrationStoreError.self) { try outcome.value?.get() }
        #expect(error.reason.contains("\(path) is a FIFO (named pipe), not a file"), "\(error)")
    }

    @Test("a device at the store's path is refused, neither read nor replaced", arguments: PlantedLinkTests.Kind.allCases)
    func aDeviceIsRefused(kind: PlantedLinkTests.Kind) throws {
        let store = kind.store(at: URL(fileURLWithPath: "/dev/null"))

        let reading = try #require(throws: MigrationStoreError.self) { try store.load() }
        let writing = try #require(throws: MigrationStoreError.self) { try store.checkWritable() }

        #expect(reading.reason.contains("/dev/null is a character device, not a file"), "\(reading)")
        #expect(writing.reason.contains("/dev/null is a character device, not a file"), "\(writing)")
    }
}
