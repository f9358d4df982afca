import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread started to run one closure, that says when it could not be started. Foundation's
/// `Thread.detachNewThread` and `Thread.start()` drop the failure of `pthread_create` (too
/// little address space, too many threads): whoever then waits for the thread's work waits
/// forever, holding whatever it holds. Here the failure is an error the caller turns into a
/// message and a step or run that ends.
///
/// ```swift
/// try DetachedThread.start(name: "output of 0.9") { readUntilClosed() }
/// ```
package enum DetachedThread {
    /// The system could not start a thread.
    package struct StartFailure: Error, CustomStringConvertible {
        /// What was to run on it.
        package let name: String
        /// `pthread_create`'s error.
        package let code: Int32

        package var description: String {
            "could not start a thread (\(name)): \(String(cString: strerror(code)))"
        }
    }

    /// Starts a thread named `name` that runs `body` and ends.
    /// - Throws: ``StartFailure`` when the system refuses a new thread; `body` then never runs.
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(StartFailure) {
        let work = Unmanaged.passRetained(Work(name: name, body: body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let result = pthread_create(&thread, nil, { argument in
            #if canImport(Darwin)
            let work = Unmanaged<Work>.fromOpaque(argument).takeRetainedValue()
            #else
            let work = Unmanaged<Work>.fromOpaque(argument!).takeRetainedValue()
            #endif
            Thread.current.name = work.name
            work.body()
            return nil
        }, work)
        guard result == 0 else {
            Unmanaged<Work>.fromOpaque(work).release()
            throw StartFailure(name: name, code: result)
        }
        #if canImport(Darwin)
        if let thread { pthread_detach(thread) }
        #else
        pthread_detach(thread)
        #endif
    }

    private final class Work: Sendable {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
