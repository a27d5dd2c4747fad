import CSystemd
import Glibc

/// The parts of libsystemd zaoan uses: socket activation and service notification.
/// Each `sd_*` call returns a negative errno on failure, which is thrown.
public enum Systemd {
    public struct ActivatedSocket: Equatable, Sendable {
        public let fd: Int32
        public let name: String?
    }

    /// Sockets passed by systemd (LISTEN_FDS/LISTEN_PID/LISTEN_FDNAMES), or none when zaoan
    /// was started by hand. The variables are unset so children do not inherit them.
    public static func activatedSockets() throws(SystemError) -> [ActivatedSocket] {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
        let count = try negativeErrnoCall("reading the sockets passed by systemd (sd_listen_fds)") { sd_listen_fds_with_names(1, &names) }
        defer {
            if let names {
                for index in 0..<Int(count) { free(names[index]) }
                free(names)
            }
        }
        return (0..<Int(count)).map { index in
            let name = names?[index].map { String(cString: $0) }
            return ActivatedSocket(fd: SD_LISTEN_FDS_START + Int32(index), name: name == "unknown" ? nil : name)
        }
    }

    /// Picks the socket to serve: the one named `zaoan` (FileDescriptorName=) if any, else the
    /// first stream socket.
    public static func pick(_ sockets: [ActivatedSocket]) -> ActivatedSocket? {
        let streams = sockets.filter { sd_is_socket_unix($0.fd, Int32(SOCK_STREAM.rawValue), 1, nil, 0) > 0 }
        return streams.first(where: { $0.name == "zaoan" }) ?? streams.first
    }

    public enum NotifyState {
        case ready
        /// A reload began; `.ready` ends it. systemd shows the unit as `reloading` meanwhile
        /// (a SIGHUP from anyone; under ExecReload= it already is). MONOTONIC_USEC= is what
        /// systemd 253's Type=notify-reload asks for with it, and older ones ignore.
        case reloading
        case stopping
        case watchdog
        case status(String)

        var assignment: String {
            switch self {
            case .ready: return "READY=1"
            case .reloading: return "RELOADING=1\nMONOTONIC_USEC=\(Posix.monotonicMicroseconds())"
            case .stopping: return "STOPPING=1"
            case .watchdog: return "WATCHDOG=1"
            case .status(let text): return "STATUS=" + text.filter { $0 != "\n" }
            }
        }
    }

    /// Tells the service manager about a state change. Returns false when no manager listens
    /// (NOTIFY_SOCKET unset), which is normal when started by hand.
    @discardableResult
    public static func notify(_ states: NotifyState...) throws(SystemError) -> Bool {
        let message = states.map(\.assignment).joined(separator: "\n")
        return try negativeErrnoCall("notifying systemd (\(message))") { sd_notify(0, message) } > 0
    }
}
