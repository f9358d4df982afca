import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP connection opened close-on-exec from the start: SwiftNIO opens its sockets without
/// `SOCK_CLOEXEC`, so every shell command started while the store is connected would inherit
/// the connection. Only a block's own command is handed it, on purpose (see
/// `PostgresMigrationStore.heldBlockDescriptor`).
enum CloseOnExecSocket {
    /// A connected socket to `host`:`port`, trying each address in turn.
    /// - Throws: ``Failure`` with the system's reason ("connection refused").
    static func connect(host: String, port: Int, timeout: Double) throws(Failure) -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &list)
        guard resolved == 0, let list else {
            throw Failure(reason: "cannot resolve \(host): \(String(cString: gai_strerror(resolved)))")
        }
        defer { freeaddrinfo(list) }
        var reason = "no address"
        var next: UnsafeMutablePointer<addrinfo>? = list
        while let address = next?.pointee {
            next = address.ai_next
            let descriptor = socket(address.ai_family, address.ai_socktype | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), address.ai_protocol)
            guard descriptor >= 0 else {
                if errno == EMFILE || errno == ENFILE { throw Failure(reason: DriverEventLoops.descriptorShortage(errno), isLocal: true) }
                reason = errnoWords(errno)
                continue
            }
            if Glibc.connect(descriptor, address.ai_addr, address.ai_addrlen) == 0 || (errno == EINPROGRESS && finishes(descriptor, timeout: timeout, reason: &reason)) {
                return descriptor
            }
            if errno != EINPROGRESS { reason = errnoWords(errno) }
            close(descriptor)
        }
        throw Failure(reason: reason)
    }

    /// Waits for a non-blocking connect to end; whether it connected.
    private static func finishes(_ descriptor: Int32, timeout: Double, reason: inout String) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        var ready: Int32
        repeat { ready = poll(&poller, 1, Int32(timeout * 1000)) } while ready < 0 && errno == EINTR
        guard ready > 0 else {
            reason = "no answer within \(Int(timeout)) s"
            return false
        }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
        if error != 0 { reason = errnoWords(error) }
        return error == 0
    }

    private static func errnoWords(_ code: Int32) -> String { String(cString: strerror(code)).lowercased() }

    struct Failure: Error {
        let reason: String
        /// Whether this process, not the network or the server, is at fault (out of descriptors).
        var isLocal = false
    }
}
