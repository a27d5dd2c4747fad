// libFuzzer target: one request line through the parser and the responder, against a fixed
// clock and a schedule that fuzzed `live add` / `live rm` keep changing. Nothing may trap,
// and every answer must be one line (or a multi-line answer ending in an empty line).
// Build and run: fuzz/run.sh (see its header). Without -DFUZZING this builds a replayer:
// `fuzz-request FILE...` runs each file once (how regression inputs are checked).
import FuzzDriver
import ZaoanCore
import ZaoanSystem

nonisolated(unsafe) private var responder: Responder = {
    var file = ConfigFile()
    file.city = "北京"
    file.maxRooms = 50
    file.cities = ["Kathmandu": "Asia/Kathmandu", "Chatham": "Pacific/Chatham"]
    let settings = try! Settings.resolve(file, systemZone: Zone.utc)
    return Responder(settings: settings)
}()
private let now = Instant(secondsSince1970: 1_796_000_000.25)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let line = UnsafeRawBufferPointer(start: data, count: size)
    guard size <= LineFramer.maxLineLength, !line.contains(0x0A) else { return 0 }
    let request: Request
    do {
        guard let parsed = try RequestParser.parse(line) else { return 0 }
        request = parsed
    } catch {
        check(Reply.error(error))
        return 0
    }
    if request.isRoomChange {
        do { responder.commit(try responder.proposedChange(request, now: now)) } catch { check(Reply.error(error)) }
    }
    check(responder.answer(request, now: now, counters: ServiceFigures(startedAt: now.adding(seconds: -5))))
    return 0
}

/// An answer is UTF-8, its lines hold no CR, and it ends with LF.
private func check(_ reply: Reply) {
    precondition(reply.bytes.last == 0x0A, "an answer without its final LF")
    precondition(String(validating: reply.bytes, as: UTF8.self) != nil, "an answer that is not UTF-8")
    precondition(!reply.bytes.contains(0x0D), "a CR in an answer")
}

#if FUZZING
@_cdecl("fuzz_request_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzzRequest)
}
#else
@main
struct Replay {
    static func main() { FuzzDriver.replay(fuzzRequest) }
}
#endif
