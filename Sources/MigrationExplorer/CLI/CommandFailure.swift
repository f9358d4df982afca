import ArgumentParser
import Foundation
import MigrationCore

/// Why a command did not succeed: the message for stderr, the exit status, and the `error`
/// object every `--json` outcome carries.
///
/// ```json
/// { "error": { "kind": "store", "message": "state.json: is a directory; …", "path": "state.json" } }
/// ```
struct CommandFailure: Error, CustomStringConvertible {
    enum Kind: String, Encodable, CaseIterable {
        /// Bad usage, or a sandbox run of real commands without `--yes`.
        case usage
        /// A manifest, a version, or a store that cannot be used (a PostgreSQL server that
        /// cannot be reached is a store, with ``ExitStatus/serverUnavailable``).
        case manifest, version, store
        /// A migration failed or could not be recorded.
        case migrationFailed = "migration-failed"
        /// A signal stopped the run (``ExitStatus/stopped(bySignal:)``), or a body cancelled it
        /// by throwing `CancellationError` (``ExitStatus/migrationFailed``).
        case cancelled
        /// The interactive explorer without a terminal.
        case noTerminal = "no-terminal"
        /// Another process held the store for longer than `--wait` allowed.
        case busy = "store-busy"
        /// The system refused a thread the command needed (too little address space, too many
        /// threads).
        case systemLimit = "system-limit"

        /// The status a failure of this kind exits with, unless it says otherwise.
        var status: ExitStatus {
            switch self {
            case .usage: .usage
            case .manifest, .version, .store: .unusableInput
            case .migrationFailed, .cancelled: .migrationFailed
            case .noTerminal: .noTerminal
            case .busy: .storeBusy
            case .systemLimit: .systemLimit
            }
        }
    }

    let kind: Kind
    let message: String
    /// The file concerned: the manifest or the store.
    let path: String?
    let status: Int32
    /// Whether the `--json` document (with this error in it) is already written.
    var reported = false

    init(_ kind: Kind, _ message: String, path: String? = nil, status: Int32? = nil) {
        self.kind = kind
        self.message = message
        self.path = path
        self.status = status ?? kind.status.rawValue
    }

    /// Several failures as one, so that every unusable input is reported at once: the first
    /// one's kind and path, every message on a line of its own.
    init(combining failures: [CommandFailure]) {
        precondition(!failures.isEmpty, "nothing to combine")
        self.init(failures[0].kind, failures.map(\.message).joined(separator: "\n"),
                  path: failures.first(where: { $0.path != nil })?.path, status: failures[0].status)
    }

    var description: String { message }

    /// The `error` object of `--json` documents.
    struct Document: Encodable {
        let kind: Kind
        let message: String
        let path: Nullable<String>

        init(_ failure: CommandFailure) {
            kind = failure.kind
            message = failure.message.redactingPasswords
            path = Nullable(failure.path?.redactingPasswords)
        }
    }

    /// `{"error": {…}}`, for outcomes that have nothing else to say.
    struct Alone: Encodable {
        let error: Document
    }
}

/// Runs `body`, turning every error into a message on stderr, an exit status and, with
/// `json`, a JSON document on stdout.
func reportingFailures(json: Bool, store: String? = nil, _ body: () async throws -> Void) async throws {
    do { try await body() } catch let exit as ExitCode {
        throw exit
    } catch {
        let failure = CommandFailure(error, store: store)
        Program.report(failure.message)
        if json, !failure.reported { StandardStreams.print(JSONReports.encode(CommandFailure.Alone(error: .init(failure)))) }
        throw ExitCode(failure.status)
    }
}

extension CommandFailure {
    /// What to do about a store another process held for longer than this one would wait.
    static let busyAdvice = "try again once it is done, or give --wait SECONDS to wait longer"

    /// Classifies any error a command meets; `store` is the `--store` path, if any.
    init(_ error: Error, store: String?) {
        switch error {
        case let failure as CommandFailure:
            self = failure
        case let error as ExplorerError:
            self.init(error.kind, error.description, path: error.kind == .store ? store : nil)
        case let error as MigrationStoreError:
            if case .busy = error.problem { self.init(.busy, "\(error); \(Self.busyAdvice)", path: store) }
            else { self.init(.store, error.description, path: store) }
        case let error as MigrationStateError:
            self.init(.store, String(describing: error), path: store)
        case is DetachedThread.StartFailure:
            self.init(.systemLimit, "\(error); what ran before stays recorded", path: store)
        default:
            self.init(.usage, String(describing: error))
        }
    }
}
