import ZaoanCore

/// The almanac computed off the loop: at start and after a reload, when the settings make
/// answers that need it (`Responder.usesAlmanac`), this year and the next are computed on a
/// thread of their own and handed to the responder. The first `{lunar}` or `{festival}`
/// after a start took 50–200 ms of the loop when computed there; now only a request in the
/// first such milliseconds after a start computes what it needs itself.
final class AlmanacPreparer {
    private var worker: BackgroundWorker<Int, AlmanacHandOff>!

    init(loop: EventLoop, responder: Responder) throws(SystemError) {
        worker = try BackgroundWorker(loop: loop, purpose: "computing the Chinese calendar", perform: { year in
            Almanac.prepared(around: year)
        }, finished: { [unowned responder] prepared in
            responder.adopt(prepared)
        })
    }

    /// Prepares the year of `now` if the settings need the almanac and it has computed nothing.
    func prepareIfUsed(by responder: Responder, now: Instant) {
        guard responder.usesAlmanac, responder.almanac.yearsComputed == 0 else { return }
        worker.submit(responder.almanacYear(now: now))
    }

    func stop() { worker.stop() }
}
