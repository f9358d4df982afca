import MigrationCore
import Testing
@testable import MigrationExplorer

/// Each error of the explorer renders its own message and knows how a command ends with it.
@Suite("Explorer errors")
struct ExplorerErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let error: ExplorerError
        let message: String
        let status: Int32
        let kind: String
        /// The path of the JSON error when the `--store` is `s.json`.
        let path: String?
        var testDescription: String { message }
    }

    static let notAVersion: VersionError? = {
        do throws(VersionError) { _ = try Version("abc") } catch { return error }
        return nil
    }()

    static let cases: [Case] = [
        Case(error: .noTerminal("no TTY; use plan"), message: "no TTY; use plan", status: 2, kind: "no-terminal", path: nil),
        Case(error: .unreadableStore("s.json: is not JSON"), message: "s.json: is not JSON", status: 65, kind: "store", path: "s.json"),
        Case(error: .noSimulatedDevice, message: "there is no simulated device to write to a real store", status: 65, kind: "store", path: "s.json"),
        Case(error: .runGoingOn(refused: "Not reset", store: "/data/s.json"),
             message: "Not reset: a run on /data/s.json is going on; try again once it has finished", status: 65, kind: "store", path: "s.json"),
    ] + (notAVersion.map { [Case(error: .appVersion(of: "the app's version", $0), message: "the app's version: \($0)", status: 65, kind: "version", path: nil)] } ?? [])

    @Test("message, exit status, JSON kind and path", arguments: cases)
    func eachErrorKnowsHowItEndsACommand(_ testCase: Case) {
        #expect(testCase.error.description == testCase.message)
        #expect(testCase.error.status.rawValue == testCase.status)
        let failure = CommandFailure(testCase.error, store: "s.json")
        #expect(failure.message == testCase.message)
        #expect(failure.status == testCase.status)
        #expect(failure.kind.rawValue == testCase.kind)
        #expect(failure.path == testCase.path)
    }

    @Test func aVersionThatIsNotOneIsNamedAsTheAppsDeclaration() {
        #expect(Self.notAVersion?.description.hasPrefix("\"abc\" is not a version") == true)
        #expect(Self.cases.count == 5)
    }
}
