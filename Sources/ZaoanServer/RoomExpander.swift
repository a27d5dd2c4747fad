import ZaoanCore

/// Keeps the Responder's expansions of recurring rooms current: every
/// `RoomRecurrence.refreshSeconds` (the window moves on), after a reload (a new zone moves
/// every room's wall clock), and at start. The reader process expands them (`ReaderProcess`),
/// supervised from a thread of its own; the loop never waits for an expansion (each is
/// bounded, 50,000 steps and 0.05 s of CPU, but `max_rooms` of them at once is seconds). A room added
/// or changed is expanded before its change is saved (`StateSaver`), so it is never shown
/// unexpanded; one loaded from the state file shows its first start until its first
/// expansion, which start-up waits for at most `startSeconds`.
final class RoomExpander {
    private let responder: Responder
    private let clock: TimeSource
    private var worker: BackgroundWorker<ReaderJob, ([String: RoomExpansion], [String])>!
    private var timer: MonotonicTimer!
    private let stopping = ReaderProcess.StopFlag()
    /// How long start-up waits for the rooms of the state file.
    static let startSeconds = 0.8

    init(loop: EventLoop, responder: Responder, clock: TimeSource, expanded: @escaping () -> Void) throws(SystemError) {
        self.responder = responder
        self.clock = clock
        // Each result is paired with the job it answers (a newer job may be waiting).
        worker = try BackgroundWorker(loop: loop, purpose: "expanding recurring rooms", perform: { [stopping] job in
            let result = ReaderProcess.run(job, stop: stopping)
            return (result.expansions(of: job), result.problems)
        }) { [unowned self] expansions, problems in
            self.responder.replaceRoomExpansions(expansions)
            for problem in problems { Log.warning(problem) }
            expanded()
        }
        timer = try MonotonicTimer(loop: loop) { [unowned self] in self.refresh() }
    }

    /// The job that expands `rooms` now, in the configured zone.
    func job(for rooms: [LiveRoom], checking: Bool = false) -> ReaderJob {
        let settings = responder.settings
        var job = ReaderJob(zone: settings.zone.identifier, now: Int64(clock.unixSeconds))
        job.defaultDuration = settings.liveDefaultDuration
        job.rooms = rooms.map { ReaderJob.RoomSeries(id: $0.id, series: .init($0, zone: job.zone)) }
        job.checkRooms = checking
        return job
    }

    /// At start, before the service says it is ready: the state file's rooms, waited for at
    /// most `startSeconds` (past that they show their first start until the next refresh).
    func expandAtStart() {
        let rooms = responder.recurringRooms
        timer.arm(after: Double(RoomRecurrence.refreshSeconds), repeating: true)
        guard !rooms.isEmpty else { return }
        let job = job(for: rooms)
        let result = ReaderProcess.run(job, stop: stopping, within: Self.startSeconds)
        responder.replaceRoomExpansions(result.expansions(of: job))
        for problem in result.problems { Log.warning(problem) }
    }

    /// Expands every recurring room again (the answer comes on the loop when it is done).
    func refresh() {
        let rooms = responder.recurringRooms
        guard !rooms.isEmpty else { return }
        worker.submit(job(for: rooms))
    }

    func stop() {
        stopping.set()
        worker.stop()
    }
}

extension ReaderResult {
    /// The rooms' occurrences as the Responder keeps them, for the series `job` sent.
    func expansions(of job: ReaderJob) -> [String: RoomExpansion] {
        var expansions: [String: RoomExpansion] = [:]
        for room in job.rooms {
            if let spans = rooms[room.id] { expansions[room.id] = RoomExpansion(series: room.series, spans: spans) }
        }
        return expansions
    }
}
