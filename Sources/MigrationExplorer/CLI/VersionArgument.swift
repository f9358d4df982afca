import ArgumentParser
import MigrationCore

/// A version given on the command line (`--from 0.8`), parsed once, as argument-parser reads
/// the arguments: the ``Version``, or why the text is not one.
///
/// A text that is not a version is kept with its reason rather than refused on the spot, so
/// that the command reports it together with every other unusable input (a bad manifest, a
/// store that cannot be read) as one error that exits 65, not as bad usage.
///
/// ```swift
/// @Option var from: VersionArgument?
/// let version = try from?.version(of: "--from")   // a Version, or a CommandFailure naming --from
/// ```
struct VersionArgument: ExpressibleByArgument, Sendable {
    private let parsed: Result<Version, VersionError>

    init(argument: String) {
        do { parsed = .success(try Version(argument)) } catch { parsed = .failure(error) }
    }

    /// The version; a ``CommandFailure`` of kind `version` naming `option` when the text is not one.
    func version(of option: String) throws(CommandFailure) -> Version {
        switch parsed {
        case .success(let version): return version
        case .failure(let error): throw CommandFailure(.version, "\(option): \(error)")
        }
    }
}

extension Optional<VersionArgument> {
    /// The version given for `option`, if one was; an argument that is not a version is added
    /// to `failures`, so that every unusable input is reported at once.
    func version(of option: String, failures: inout [CommandFailure]) -> Version? {
        guard let argument = self else { return nil }
        do { return try argument.version(of: option) } catch {
            failures.append(error)
            return nil
        }
    }
}
