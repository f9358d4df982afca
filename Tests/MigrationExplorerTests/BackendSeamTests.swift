import Foundation
import Testing

/// A store kind is known in its folder under `Sources/MigrationExplorer/Backends/` alone: no
/// other file of the explorer names a concrete store type, so a new backend touches its folder
/// and the one line that lists the backends.
@Suite struct BackendSeamTests {
    static let explorer = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/MigrationExplorer")
    static let concreteStores = ["FileMigrationStore", "PropertyListMigrationStore", "SQLiteMigrationStore", "PostgresMigrationStore"]

    @Test func noExplorerFileOutsideTheBackendsNamesAConcreteStoreType() throws {
        let files = try #require(FileManager.default.enumerator(at: Self.explorer, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 50, "the explorer's sources are at \(Self.explorer.path)")
        let naming = try files.filter { !$0.path.contains("/Backends/") }.flatMap { file in
            let text = try String(contentsOf: file, encoding: .utf8)
            return Self.concreteStores.filter(text.contains).map { "\(file.lastPathComponent) names \($0)" }
        }
        #expect(naming.isEmpty, "\(naming)")
    }
}
