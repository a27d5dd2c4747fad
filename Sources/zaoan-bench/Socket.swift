import Glibc

/// A failed system call, with what the benchmark was doing at the time.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ what: String, errno code: Int32 = Glibc.errno) {
        description = "\(what): \(String(cString: strerror(code)))"
    }
    init(message: String) { description = message }
}

/// Small blocking helpers over a Unix stream socket. Nothing here allocates on the request
/// path: the generator must cost the server as little CPU as possible on a 2-core machine.
enum Socket {
    /// Connects a blocking Unix stream socket to `path`.
    static func connect(_ path: String) throws(BenchError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            close(fd)
            throw BenchError(message: "socket path longer than \(capacity - 1) bytes: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw BenchError("connect \(path)", errno: code)
        }
        return fd
    }

    /// Sends all of `bytes`.
    @inline(__always)
    static func sendAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = send(fd, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            if n > 0 { sent += n; continue }
            if n < 0 && errno == EINTR { continue }
            return false
        }
        return true
    }

    /// Reads until `lines` LF bytes have arrived. Returns false on EOF or error.
    /// The first bytes of the reply are left in `buffer` for checking.
    @inline(__always)
    /// With `spin`, never blocks: retries a non-blocking recv until data arrives.
    static func readLines(_ fd: Int32, _ lines: Int, _ buffer: UnsafeMutableRawBufferPointer, spin: Bool = false) -> Bool {
        var seen = 0
        let flags = spin ? Int32(MSG_DONTWAIT) : 0
        while seen < lines {
            let n = recv(fd, buffer.baseAddress, buffer.count, flags)
            if n > 0 {
                seen += countLF(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                continue
            }
            if n < 0 && (errno == EINTR || (spin && errno == EAGAIN)) { continue }
            return false
        }
        return true
    }

    /// Reads until the peer closes. Returns the bytes read, or -1 on error. The reply's first
    /// bytes stay at the front of `buffer` (later reads go to its second half).
    static func readToEOF(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, spin: Bool = false) -> Int {
        var total = 0
        let flags = spin ? Int32(MSG_DONTWAIT) : 0
        while true {
            let n = recv(fd, buffer.baseAddress.map { $0 + min(total, buffer.count / 2) }, buffer.count / 2, flags)
            if n > 0 { total += n; continue }
            if n == 0 { return total }
            if errno == EINTR || (spin && errno == EAGAIN) { continue }
            return -1
        }
    }

    @inline(__always)
    static func countLF(_ bytes: UnsafeRawBufferPointer) -> Int {
        var count = 0
        for byte in bytes where byte == 0x0A { count += 1 }
        return count
    }
}

/// CPU seconds (user + system) this process has used so far.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Monotonic time in nanoseconds.
@inline(__always)
func monotonicNanos() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// The line as bytes, with LF (or CR LF) appended.
func requestBytes(_ line: String, crlf: Bool) -> [UInt8] {
    Array(line.utf8) + (crlf ? [0x0D, 0x0A] : [0x0A])
}

/// Text for a reply, for printing: its first line (at most 120 bytes), a CR shown as `\\r`.
func printable(_ bytes: UnsafeRawBufferPointer) -> String {
    var line: [UInt8] = []
    for byte in bytes.prefix(120) {
        if byte == 0x0A { break }
        if byte == 0x0D { line += [0x5C, 0x72] } else { line.append(byte) }
    }
    return String(decoding: line, as: UTF8.self)
}
