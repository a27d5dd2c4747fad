import CLinux
import Glibc

/// Delivers signals through the loop (signalfd), so handlers run on the loop's thread like
/// everything else. The signals are blocked for the whole process at start.
final class SignalHandler: EventHandler {
    private let fd: Int32
    private unowned let server: Server

    /// Blocks `signals` in the calling thread, which threads started later inherit.
    /// Call it first thing in `main`, before anything can start a thread.
    static func block(_ signals: [Int32]) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        pthread_sigmask(SIG_BLOCK, &mask, nil)
    }

    init(server: Server, signals: [Int32]) throws(SystemError) {
        Self.block(signals)
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        fd = signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        guard fd >= 0 else { throw SystemError(errno: errno, "creating a signalfd") }
        self.server = server
        try server.loop.register(fd, events: EventLoop.readable, handler: self)
    }

    func handle(events: UInt32) {
        var info = signalfd_siginfo()
        while read(fd, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            server.received(signal: Int32(info.ssi_signo))
        }
    }
}

/// The signals the service handles through its loop.
public let serviceSignals: [Int32] = [SIGTERM, SIGINT, SIGHUP]

/// Blocks the service's signals for the process; `main` calls it before anything else.
public func blockServiceSignals() {
    SignalHandler.block(serviceSignals)
}
