// An app's own explorer whose second migration misbehaves as `MISBEHAVIOUR` says ("exit",
// "crash" or "print"): the end-to-end tests check that the terminal and what was printed
// survive it.
import Foundation
import MigrationCore
import MigrationExplorer

let misbehaviour = ProcessInfo.processInfo.environment["MISBEHAVIOUR"] ?? "print"
var registry = MigrationRegistry(appName: "Misbehaving")
registry.migrate(toVersion: "1.0", title: "Behaves") { _ in }
registry.migrate(toVersion: "1.1", title: "Misbehaves") { _ in
    print("printed to standard output")
    FileHandle.standardError.write(Data("written to standard error\n".utf8))
    switch misbehaviour {
    case "exit": exit(5)
    case "crash": fatalError("the body crashed on purpose")
    default: break
    }
}

MigrationExplorer.main(registry: registry, appVersion: "1.1")
