import CLinux
import Glibc

/// Signals delivered as readable data (signalfd), so the service's event loop and the
/// clients' poll(2) loops wait for them beside their sockets, on their own thread.
public enum Signals {
    /// Blocks `signals` for the calling thread (and threads it starts later).
    public static func block(_ signals: [Int32]) {
        var set = mask(signals)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Unblocks `signals` for the calling thread: their default actions apply again.
    public static func unblock(_ signals: [Int32]) {
        var set = mask(signals)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Blocks `signals` and returns a non-blocking signalfd that receives them.
    public static func descriptor(for signals: [Int32]) throws(SystemError) -> Descriptor {
        block(signals)
        var set = mask(signals)
        return Descriptor(taking: try syscall("creating a signalfd") { signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) })
    }

    /// The signals waiting on a descriptor from `descriptor(for:)`, oldest first.
    public static func read(_ descriptor: borrowing Descriptor) -> [Int32] {
        let fd = descriptor.rawValue
        var received: [Int32] = []
        var info = signalfd_siginfo()
        while Glibc.read(fd, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            received.append(Int32(info.ssi_signo))
        }
        return received
    }

    private static func mask(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        return set
    }
}
