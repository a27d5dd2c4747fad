import Glibc
import Testing
@testable import ZaoanServer

/// The loop's registrations have an identity: an event fetched for a descriptor that a
/// handler earlier in the same batch closed must not reach the connection that got the same
/// descriptor number next.
@Suite("Event loop registrations")
struct EventLoopTests {
    final class Recorder: EventHandler {
        var calls = 0
        var onEvent: (() -> Void)?
        func handle(events: UInt32) {
            calls += 1
            onEvent?()
        }
    }

    private func socketPair() -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        let result = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds)
        precondition(result == 0)
        return (fds[0], fds[1])
    }

    @Test("a descriptor closed and reused within one batch does not receive the old registration's event")
    func reuseWithinBatch() throws {
        let loop = try EventLoop()
        let (a, aPeer) = socketPair()
        let (b, bPeer) = socketPair()
        defer { [aPeer, bPeer].forEach { close($0) } }
        // Both readable before the wait, so both events arrive in one batch.
        _ = write(aPeer, "x", 1)
        _ = write(bPeer, "x", 1)
        let first = Recorder()
        let second = Recorder()
        let newcomer = Recorder()
        var replacement: Int32 = -1
        var replacementPeer: Int32 = -1
        // Whichever handler runs first closes the other's descriptor and registers a new one
        // under the same number, which is not readable yet. The new socket is put on that
        // number with dup2, which closes the old one and reuses its number in one step: the
        // lowest free number is not to be counted on while other tests of this process open
        // descriptors at the same time (it failed so, now and then).
        func takeOver(_ victim: Int32) {
            guard replacement < 0 else { return }
            loop.unregister(victim)
            let (made, freshPeer) = socketPair()
            let fresh = dup2(made, victim)
            close(made)
            replacement = fresh
            replacementPeer = freshPeer
            #expect(fresh == victim, "the new socket has the old number")
            // Interested in reading, and nothing to read: only the stale event could call it.
            try? loop.register(fresh, events: EventLoop.readable, handler: newcomer)
        }
        first.onEvent = { takeOver(b) }
        second.onEvent = { takeOver(a) }
        try loop.register(a, events: EventLoop.readable, handler: first)
        try loop.register(b, events: EventLoop.readable, handler: second)
        loop.run(afterWake: {}, afterBatch: { loop.stop(); return false })
        #expect(first.calls + second.calls == 1, "the closed descriptor's handler is not called")
        #expect(newcomer.calls == 0, "the stale event did not reach the new registration")
        if replacement >= 0 { close(replacement) }
        if replacementPeer >= 0 { close(replacementPeer) }
        close(first.calls == 1 ? a : b)
    }

    @Test("an event is masked by the interest registered now: a writable event fetched before the interest dropped it is not delivered")
    func interestMask() throws {
        let loop = try EventLoop()
        let (a, aPeer) = socketPair()
        let (b, bPeer) = socketPair()
        defer { [a, b, aPeer, bPeer].forEach { close($0) } }
        _ = write(aPeer, "x", 1)
        final class Logging: EventHandler {
            var onEvent: ((UInt32) -> Void)?
            func handle(events: UInt32) { onEvent?(events) }
        }
        // a is readable and b writable: one batch. a's handler takes b's interest in writing
        // away. Whichever order the batch comes in, b may be called only before that, and
        // then with its writable event; never after it.
        var log: [String] = []
        var bEvents: [UInt32] = []
        let first = Logging()
        let capture = Logging()
        first.onEvent = { _ in
            log.append("a")
            try? loop.modify(b, events: EventLoop.readable)
        }
        capture.onEvent = { events in
            log.append("b")
            bEvents.append(events)
        }
        try loop.register(a, events: EventLoop.readable, handler: first)
        try loop.register(b, events: EventLoop.writable, handler: capture)
        loop.run(afterWake: {}, afterBatch: { loop.stop(); return false })
        #expect(log == ["a"] || log == ["b", "a"], "a runs once; b only before a dropped its interest: \(log)")
        #expect(bEvents.allSatisfy { $0 & EventLoop.writable != 0 }, "b, if it ran, ran for its writable event: \(bEvents)")
    }
}
