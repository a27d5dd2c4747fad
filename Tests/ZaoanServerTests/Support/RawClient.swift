import Foundation
import Glibc

/// Fills a `sockaddr_un` for `path` and calls `body` with it.
func withUnixAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) throws -> T {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
        throw TestFailure("socket path \(path) is \(bytes.count) bytes, too long for sun_path")
    }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        raw.copyBytes(from: bytes)
        raw[bytes.count] = 0
    }
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
}

private func errnoText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

/// A blocking Unix stream client over the bare system calls, for cases where the exact bytes
/// and the moment of each close matter. Every read and write has a timeout (SO_RCVTIMEO,
/// SO_SNDTIMEO), so a server that stalls makes the test fail rather than hang.
final class RawClient {
    let fd: Int32
    let path: String
    private var buffer: [UInt8] = []
    private var closed = false

    init(path: String, timeout: Double = 5) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: \(errnoText())") }
        var time = socketTimeout(timeout)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        let result = try withUnixAddress(path) { Glibc.connect(fd, $0, $1) }
        if result != 0 {
            let code = errno
            close()  // marks it closed, so deinit does not close a reused descriptor number again
            throw TestFailure("connect \(path): \(errnoText(code))")
        }
    }

    deinit { close() }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                throw TestFailure("send to \(path) after \(offset) of \(bytes.count) bytes: \(errnoText())")
            }
            offset += sent
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Half-closes: the server sees EOF, we can still read its answers.
    func shutdownWrite() { Glibc.shutdown(fd, Int32(SHUT_WR)) }

    /// One read into the buffer. Returns false at EOF; throws on timeout or error.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return true
            }
            if count == 0 { return false }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK {
                throw TestFailure("timed out reading from \(path); received so far: \(String(decoding: buffer, as: UTF8.self).debugDescription)")
            }
            throw TestFailure("recv from \(path): \(errnoText(code)); received so far: \(String(decoding: buffer, as: UTF8.self).debugDescription)")
        }
    }

    /// The next line, without its LF. Throws at EOF before a full line, or on timeout.
    func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return String(decoding: line, as: UTF8.self)
            }
            guard try fill() else {
                throw TestFailure("\(path) closed the connection before a full line; got \(String(decoding: buffer, as: UTF8.self).debugDescription)")
            }
        }
    }

    /// The next line, waiting at most `timeout` seconds for each read (a stream's pace).
    func readLine(timeout: Double) throws -> String {
        var time = socketTimeout(timeout)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        return try readLine()
    }

    /// Everything until the server closes. Throws on timeout (the server kept it open).
    func readToEnd() throws -> [UInt8] {
        while try fill() {}
        defer { buffer.removeAll() }
        return buffer
    }

    func readToEndText() throws -> String { String(decoding: try readToEnd(), as: UTF8.self) }

    /// Whether the server has closed the connection (EOF is readable) within `timeout`
    /// seconds, with nothing else arriving first.
    enum PeerState: Equatable { case open, closed, sentData }
    func peerState(within timeout: Double) -> PeerState {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&entry, 1, Int32(timeout * 1000))
        guard ready > 0 else { return .open }
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count > 0 ? .sentData : .closed
    }

    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }
}
