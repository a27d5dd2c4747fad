import ZaoanCore

/// Watch frames on a channel: to the socket, where only the newest waits for a reader
/// that is behind, or to the bar's handed-over pipe (`BarOutput`).
extension Channel {
    /// A watch update. If the client has not read the last one yet, only the newest waits:
    /// stale frames are dropped so a stalled watcher costs bounded memory. With `keepAll`
    /// (an event stream, where every line counts) it is queued behind the others instead.
    func sendFrame(_ reply: Reply, keepAll: Bool = false) {
        guard isOpen, handler?.intake != .closing else { return }
        if let bar {
            if !bar.send(reply) { close() }  // EPIPE: the bar is gone
            if needsSweeping { shared.sweepSoon() }
            return
        }
        if hasPendingOutput && !keepAll {
            newestFrame = reply
            return
        }
        write(reply)
    }

    func attach(_ bar: BarOutput) { self.bar = bar }

    func detachBar() {
        bar?.close()
        bar = nil
        newestFrame = nil
    }

    /// The bar's pipe took some of a waiting line.
    func outputProgressed() { lastOutputProgress = clock.monotonic }
}
