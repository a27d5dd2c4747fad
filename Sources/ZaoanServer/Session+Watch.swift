import Glibc
import ZaoanCore

/// A session's watch (`watch REQUEST`, with a bar's handed-over pipe) and event stream
/// (`watch events`): started by a line, ended by the next line, by the end of input, or by
/// the close.
extension Session {
    func watch(_ request: Request) -> Bool {
        guard let (ticket, first) = dispatcher.watches.add(channel, request: request, account: ConnectionTable.uidKey(peer)) else {
            channel.send(.error(ProtocolError(.busy, "this account watches \(WatchHub.distinctPerAccount) different requests already, the most one account may; end one of them (watching a request that is watched already is not limited)")))
            return true
        }
        become(.watching(mode, ticket))
        dispatcher.statusChanged()
        if !first.isError, case .formatted(.i3bar, .blocks) = request, let bar = adoptBarOutput() {
            // The bar's status lines go to its pipe; the socket says so, then stays quiet.
            channel.attach(bar)
            channel.send(.handedOver)
            guard bar.send(first) else {
                channel.close()
                return false
            }
        } else {
            channel.send(first)
        }
        return true
    }

    /// `watch events`: a stream of moments; nothing is sent now but what a returning
    /// subscriber missed, the moments after `replayAfter`.
    func follow(replayingAfter replayAfter: Int?) {
        dispatcher.events.add(channel, replayingAfter: replayAfter)
        become(.followingEvents(mode))
        dispatcher.statusChanged()
    }

    /// Takes the descriptor passed with the watch request as the bar's output, if it is one.
    private func adoptBarOutput() -> BarOutput? {
        guard let passed = channel.takePassedDescriptor() else { return nil }
        guard peer?.mayHandOver == true else {
            passed.close()  // untouched: not even fstat, which can reach a hostile file system
            Log.debug("\(self.who): only the service's own user or root may hand over a bar's output; answering on the socket")
            return nil
        }
        switch BarOutput.adopt(passed, for: channel, loop: dispatcher.loop) {
        case .success(let bar):
            return bar
        case .failure(let error):
            Log.debug("\(self.who): \(error); answering on the socket")
            return nil
        }
    }

    /// Ends a watch or an event stream, if one is open; returns the mode it goes back to.
    @discardableResult
    func endWatch() -> Mode {
        guard isWatching else { return mode }  // the usual case: no payload to copy
        switch state {
        case .watching(let mode, let ticket):
            channel.detachBar()
            dispatcher.watches.remove(channel, ticket: ticket)
            back(to: mode)
            dispatcher.statusChanged()
            return mode
        case .followingEvents(let mode):
            channel.detachBar()
            dispatcher.events.remove(channel)
            back(to: mode)
            dispatcher.statusChanged()
            return mode
        default:
            return mode
        }
    }
}
