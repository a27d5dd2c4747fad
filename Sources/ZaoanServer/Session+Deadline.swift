import ZaoanCore

/// A session's time limits, enforced by the sweeper (`ConnectionTable.expire`).
extension Session {
    /// The sweeper's look at this connection: closes it if a time limit has passed. In this
    /// order: output above the soft limit, output stuck, a line left unfinished; then, unless
    /// it watches, a session's idle time or a one-shot connection's first line.
    func expire(now: Double, _ timeouts: Timeouts) {
        if let since = channel.overSoftLimitSince, now - since >= timeouts.softLimit {
            channel.close(for: .outputSoftLimit)
        } else if channel.hasPendingOutput {
            if now - channel.lastOutputProgress >= timeouts.stuckClient { channel.close(for: .stuck) }
        } else if let since = channel.partialLineSince, now - since >= timeouts.partialLine {
            channel.close(for: .partialLine)
        } else if isWatching || channel.waitsForTurn {
            return  // a watcher, or a line waiting for its turn, waits for the server, not the other way round
        } else if mode == .session {
            if now - lastActivity >= timeouts.idle { channel.close() }
        } else if now - acceptedAt >= timeouts.firstLine {
            channel.close()
        }
    }

    /// The time limits of the settings in force, in seconds.
    struct Timeouts {
        var softLimit, stuckClient, partialLine, idle, firstLine: Double

        init(_ settings: Settings) {
            softLimit = Double(settings.outputLimits.softSeconds)
            stuckClient = Double(settings.stuckClientSeconds)
            partialLine = Double(settings.partialLineSeconds)
            idle = Double(settings.idleTimeout)
            firstLine = Double(settings.firstLineSeconds)
        }
    }
}
