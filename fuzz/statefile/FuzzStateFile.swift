// libFuzzer target: the state-file decoder. Whatever the bytes, decoding must not trap; the
// rooms it keeps must render in every answer that shows rooms, at a fixed clock; and saving
// them and reading them back must give the same rooms. Without -DFUZZING: a replayer.
import FuzzDriver
import ZaoanCore

nonisolated(unsafe) private var settings: Settings = {
    var file = ConfigFile()
    file.timezone = "Australia/Lord_Howe"
    return try! Settings.resolve(file, systemZone: .utc)
}()
private let now = Instant(unixSeconds: 1_796_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStateFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let decoded = try? StateFile.decode(bytes) else { return 0 }
    let responder = Responder(settings: settings, schedule: decoded.schedule)
    let counters = ServiceFigures(startedAt: now)
    var requests: [Request] = [.liveList, .countdown(id: nil), .ticker(skip: 3), .status, .formatted(.json, .status)]
    requests += decoded.schedule.rooms.keys.prefix(5).flatMap { [Request.liveShow(id: $0), .countdown(id: $0)] }
    for request in requests {
        let reply = responder.answer(request, now: now, counters: counters)
        precondition(!reply.isError, "a kept room could not be shown: \(reply.text)")
    }
    let again = try! StateFile.decode(StateFile.encode(decoded.schedule))
    precondition(again.schedule == decoded.schedule && again.dropped.isEmpty, "saving and loading changed the rooms")
    return 0
}

#if FUZZING
@_cdecl("fuzz_statefile_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzzStateFile)
}
#else
@main
struct Replay {
    static func main() { FuzzDriver.replay(fuzzStateFile) }
}
#endif
