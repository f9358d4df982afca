import Foundation
import Subprocess

/// The preferences plist of an app installed in an iOS simulator, found with
/// `xcrun simctl get_app_container DEVICE BUNDLE_ID data` (Xcode's tools, on macOS).
///
/// ```swift
/// let plist = try SimulatorContainer.preferences(of: "com.example.notes", device: "booted")
/// // …/data/Containers/Data/Application/<UUID>/Library/Preferences/com.example.notes.plist
/// ```
enum SimulatorContainer {
    /// The path of `bundleID`'s preferences plist in its data container on `device`.
    /// - Throws: ``CommandFailure`` when `xcrun` is missing, fails, or names no folder.
    static func preferences(of bundleID: String, device: String) throws(CommandFailure) -> String {
        let arguments = ["simctl", "get_app_container", device, bundleID, "data"]
        let command = (["xcrun"] + arguments).joined(separator: " ")
        let result: (status: TerminationStatus, output: String, errors: String)
        do {
            result = try blocking {
                let run = try await Subprocess.run(.name("xcrun"), arguments: .init(arguments),
                                                   output: .string(limit: 1 << 16), error: .string(limit: 1 << 16))
                return (run.terminationStatus, run.standardOutput, run.standardError)
            }
        } catch let error as SubprocessError where error.code == .executableNotFound {
            throw CommandFailure(.store, "--simulator: xcrun was not found on PATH; it comes with Xcode, on macOS")
        } catch {
            throw CommandFailure(.store, "--simulator: `\(command)` could not run: \(error)")
        }
        let errors = result.errors.trimmingCharacters(in: .whitespacesAndNewlines)
        let failure: String? = switch result.status {
        case .exited(0): nil
        case .exited(let code): "exited with status \(code)"
        case .signaled(let signal): "was killed by signal \(signal)"
        }
        if let failure {
            throw CommandFailure(.store, "--simulator: `\(command)` \(failure)\(errors.isEmpty ? "" : ": \(errors)"); "
                + "is the simulator booted and \(bundleID) installed on it?")
        }
        let container = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        var isDirectory: ObjCBool = false
        guard !container.isEmpty, FileManager.default.fileExists(atPath: container, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure(.store, "--simulator: `\(command)` printed \"\(container)\", which is not a folder")
        }
        return URL(fileURLWithPath: container).appendingPathComponent("Library/Preferences/\(bundleID).plist").path
    }

    /// Why the app must not be running while its plist is changed.
    static func quitWarning(_ bundleID: String) -> String {
        "warning: a running app keeps its defaults in memory and writes them back: quit \(bundleID) in the simulator first"
    }
}
