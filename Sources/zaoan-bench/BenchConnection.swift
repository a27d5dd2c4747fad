import Glibc
import ZaoanClient
import ZaoanSystem

/// One connection of the generator: the clients' `ServiceConnection` (blocking, so the
/// generator waits in recv(2) instead of poll(2) then recv), with replies cut by the
/// service's own `LineFramer`. Nothing here allocates on the request path: the generator
/// must cost the server as little CPU as possible on a 2-core machine.
final class BenchConnection {
    let connection: ServiceConnection
    /// Counts reply lines; a reply line longer than this is a failure, not a count.
    private var framer = LineFramer(lineLimit: ClientLimits.maxLine)

    /// Connects a blocking Unix stream socket to `path`.
    init(_ path: String) throws(ClientError) {
        connection = try ServiceConnection(path: path, blocking: true, deadline: Deadline(after: ClientLimits.defaultTimeout))
    }

    var fd: Int32 { connection.fd }

    /// Sends all of `bytes`.
    @inline(__always)
    func sendAll(_ bytes: UnsafeRawBufferPointer) -> Bool {
        (try? connection.send(bytes, until: nil)) != nil  // false: the caller counts an error
    }

    /// One recv: the bytes read, 0 at the end or on an error, nil when nothing is waiting
    /// (with `dontWait`).
    @inline(__always)
    func receive(_ buffer: UnsafeMutableRawBufferPointer, dontWait: Bool = false) -> Int? {
        switch try? connection.receive(into: buffer, flags: dontWait ? Int32(MSG_DONTWAIT) : 0) {  // an error reads as the end
        case .value(let count)?: return count
        case .wouldBlock?: return nil
        case nil: return 0
        }
    }

    /// The whole lines in `bytes`, with what came before; nil if a line is too long.
    @inline(__always)
    func lines(in bytes: UnsafeRawBufferPointer) -> Int? {
        var count = 0
        var tooLong = false
        framer.feed(bytes) { frame in
            if case .line = frame { count += 1 } else { tooLong = true }
            return true
        }
        return tooLong ? nil : count
    }

    /// Reads until `lines` lines have arrived. Returns false on EOF or error.
    /// The first bytes of the reply are left in `buffer` for checking.
    /// With `spin`, never blocks: retries a non-blocking recv until data arrives.
    @inline(__always)
    func readLines(_ lines: Int, _ buffer: UnsafeMutableRawBufferPointer, spin: Bool = false) -> Bool {
        var seen = 0
        while seen < lines {
            guard let count = receive(buffer, dontWait: spin) else { continue }
            guard count > 0, let complete = self.lines(in: UnsafeRawBufferPointer(rebasing: buffer[0..<count])) else { return false }
            seen += complete
        }
        return true
    }

    /// Reads until the peer closes. Returns the bytes read, or -1 on error. The reply's first
    /// bytes stay at the front of `buffer` (later reads go to its second half).
    func readToEOF(_ buffer: UnsafeMutableRawBufferPointer, spin: Bool = false) -> Int {
        var total = 0
        while true {
            let half = UnsafeMutableRawBufferPointer(rebasing: buffer[min(total, buffer.count / 2)...].prefix(buffer.count / 2))
            switch try? connection.receive(into: half, flags: spin ? Int32(MSG_DONTWAIT) : 0) {  // an error reads as the end
            case .value(0)?: return total
            case .value(let count)?: total += count
            case .wouldBlock?: continue
            case nil: return -1
            }
        }
    }

    func close() { connection.close() }
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
