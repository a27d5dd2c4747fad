import CSystemd
import CLinux
import Glibc

/// A one-shot client: connect, send one line, read the answer until the server closes.
/// `zaoan ask` uses it on machines whose netcat has no -U.
public enum Client {
    public enum Failure: Error, CustomStringConvertible {
        case unreachable(path: String, SystemError)
        case io(SystemError)

        public var description: String {
            switch self {
            case .unreachable(let path, let error):
                return "cannot reach the zaoan service at \(path) (\(error.description.components(separatedBy: ": ").last ?? "")).\n"
                    + "Start it with `zaoan serve`, or as a user service with `systemctl --user enable --now zaoan.socket`."
            case .io(let error):
                return error.description
            }
        }
    }

    /// Joins command-line words into a request line: a single argument is sent as it is
    /// (`zaoan ask "greeting New York"`); with several, words holding blanks are quoted.
    public static func requestLine(_ words: [String]) -> String {
        if words.count == 1 { return words[0] }
        return words.map { word in
            guard word.isEmpty || word.contains(where: { $0 == " " || $0 == "\t" || $0 == "\"" }) else { return word }
            return "\"" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }.joined(separator: " ")
    }

    public static func ask(_ line: String, socketPath: String, timeoutSeconds: Int = 5) throws(Failure) -> [UInt8] {
        let fd = try connect(socketPath: socketPath)
        defer { Posix.close(fd) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        try send(line, on: fd, socketPath: socketPath)
        shutdown(fd, Int32(SHUT_WR))
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                answer.append(contentsOf: buffer[0..<count])
            } else if count == 0 {
                return answer
            } else if errno == EINTR {
                continue
            } else {
                throw .io(SystemError(errno: errno, "reading the answer from \(socketPath)"))
            }
        }
    }
}

// MARK: - Connecting and sending, for `ask` and the long-lived clients (`zaoan watch`, `zaoan bar`)

extension Client {
    /// Connects to the service and returns the socket (blocking, close-on-exec), for a
    /// client that keeps the connection open, such as a `watch`.
    public static func connect(socketPath: String) throws(Failure) -> Int32 {
        do {
            return try UnixAddress(path: socketPath).connect()
        } catch {
            throw .unreachable(path: socketPath, error)
        }
    }

    /// Sends one request line (LF added) on a connected, blocking socket.
    public static func send(_ line: String, on fd: Int32, socketPath: String) throws(Failure) {
        var request = Array(line.utf8)
        request.append(0x0A)
        let sent = request.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        guard sent else { throw .io(SystemError(errno: errno, "sending the request to \(socketPath)")) }
    }
}
