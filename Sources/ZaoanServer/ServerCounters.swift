import ZaoanCore


/// The service's running totals, counted where each thing happens (accepting, refusing,
/// closing for a limit). `stats` takes a snapshot of them, with the figures read off where
/// they live (`ServiceFigures`, what the Responder renders).
struct ServerCounters {
    let startedAt: Instant
    var connectionsTotal = 0
    /// Connections refused because every slot open to the peer was taken.
    var connectionsRefused = 0
    /// The same, by the peer's uid (-1: the kernel did not say).
    var refusedByUID: [Int64: Int] = [:]
    /// Connections the service closed: past the hard output limit, above the soft limit
    /// for too long or stuck, or with a line left unfinished.
    var closedOutputLimit = 0
    var closedSlowReader = 0
    var closedPartialLine = 0

    init(startedAt: Instant) { self.startedAt = startedAt }
}
