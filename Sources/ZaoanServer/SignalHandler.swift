import CLinux
import Glibc
import ZaoanSystem

/// Hands the service's signals to the server on the loop's thread.
final class SignalHandler: EventHandler {
    private let signals: Descriptor
    private unowned let server: Server

    init(server: Server, signals: [Int32]) throws(SystemError) {
        self.signals = try Signals.descriptor(for: signals)
        self.server = server
        try server.loop.register(self.signals.rawValue, events: EventLoop.readable, handler: self)
    }

    func handle(events: UInt32) {
        for signal in Signals.read(signals) { server.received(signal: signal) }
    }
}

/// The signals the service handles through its loop.
public let serviceSignals: [Int32] = [SIGTERM, SIGINT, SIGHUP]

/// Blocks the service's signals for the process; `main` calls it before anything can start
/// a thread, so no other thread takes them.
public func blockServiceSignals() {
    Signals.block(serviceSignals)
}
