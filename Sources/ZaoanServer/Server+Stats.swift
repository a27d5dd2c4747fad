import CLinux
import ZaoanCore

/// What `stats` reports, and what a closed session leaves to count: a limit it broke, and
/// whether the service is now idle.
extension Server {
    /// What `stats` reports: the running totals, and the rest read off where it lives.
    var statistics: ServiceFigures {
        var snapshot = ServiceFigures(startedAt: counters.startedAt)
        snapshot.connectionsTotal = counters.connectionsTotal
        snapshot.connectionsRefused = counters.connectionsRefused
        snapshot.refusedByUID = counters.refusedByUID
        snapshot.closedOutputLimit = counters.closedOutputLimit
        snapshot.closedSlowReader = counters.closedSlowReader
        snapshot.closedPartialLine = counters.closedPartialLine
        snapshot.requests = dispatcher.requests
        snapshot.connectionsOpen = table.count
        snapshot.watches = watches.count
        snapshot.timers = TimerCensus.wallClock
        snapshot.serviceTimers = TimerCensus.monotonic
        snapshot.clockChanges = watches.clockChanges
        snapshot.systemZoneChanges = systemZone?.changes ?? 0
        snapshot.logLinesDropped = Log.droppedLines
        // malloc's chunks in use in every arena, and its chunks of their own mapping (large answers).
        let heap = mallinfo2()
        snapshot.heapBytes = Int(clamping: heap.uordblks &+ heap.hblkhd)
        snapshot.heldForNextTurn = shared.turn.held
        snapshot.refusedUnreadBacklog = shared.refusedForBacklog
        snapshot.configProblems = configProblems.map(\.report)
        if let calendars {
            snapshot.calendarsLoaded = calendars.sourcesLoaded
            snapshot.calendarsWaiting = calendars.sourcesWaiting
            snapshot.calendarsReading = calendars.sourcesReading
            snapshot.calendarProblems = calendars.problems
            snapshot.calendarProblemsNotKept = calendars.problemsNotKept
            snapshot.calendarFilesParsed = calendars.filesParsed
            snapshot.calendarFilesUnchanged = calendars.filesUnchanged
        }
        return snapshot
    }

    /// At the end of the turn a session was closed in: count a limit it broke, and see
    /// whether the service is now idle.
    func sessionClosed(_ session: Session) {
        if let reason = session.channel.closeReason { closedForLimit(session.peer, reason: reason) }
        resumeAccepting()
        statusChanged()
        if table.isEmpty {
            if case .serving(accepting: true) = lifecycle { sweeper?.disarm() }
            if case .draining = lifecycle { loop.stop() } else { becameIdle() }
        }
    }

    /// A connection broke a limit and was closed: count it, and say so in the log.
    private func closedForLimit(_ peer: PeerCredentials?, reason: Channel.CloseReason) {
        let what: String
        switch reason {
        case .outputHardLimit:
            counters.closedOutputLimit += 1
            what = "had more than \(shared.outputLimits.hard) bytes of answers unread (output_hard_limit)"
        case .outputAccountLimit:
            counters.closedOutputLimit += 1
            what = "took its account's unread answers, over all its connections, past \(shared.outputLimits.perAccount) bytes (output_hard_limit holds for an account's connections together too); read the answers, or open fewer connections"
        case .outputSoftLimit:
            counters.closedSlowReader += 1
            what = "kept more than \(shared.outputLimits.soft) bytes of answers unread for \(shared.outputLimits.softSeconds) s (output_soft_limit)"
        case .stuck:
            counters.closedSlowReader += 1
            what = "read none of its answers for \(responder.settings.stuckClientSeconds) s (stuck_client_seconds)"
        case .partialLine:
            counters.closedPartialLine += 1
            what = "left a line unfinished for \(responder.settings.partialLineSeconds) s (partial_line_seconds)"
        }
        refusals.note(uid: ConnectionTable.uidKey(peer), pid: peer?.pid,
                      message: "closed a connection that \(what)", event: nil)
    }
}
