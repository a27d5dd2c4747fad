// libFuzzer target: the state-file decoder. Whatever the bytes, decoding must not trap; the
// rooms it keeps must render in every answer that shows rooms, at a fixed clock; and saving
// them and reading them back must give the same rooms. Without -DFUZZING: a replayer.
import Foundation
import ZaoanCore

nonisolated(unsafe) private var settings: Settings = {
    var file = ConfigFile()
    file.timezone = "Australia/Lord_Howe"
    return try! Settings.resolve(file, systemZone: TimeZone(identifier: "UTC")!)
}()
private let now = Date(timeIntervalSince1970: 1_796_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStateFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    guard let decoded = try? StateFile.decode(bytes) else { return 0 }
    let responder = Responder(settings: settings, schedule: decoded.schedule)
    let counters = ServerCounters(startedAt: now)
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
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzer(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
               _ test: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

/// SwiftPM links an executable's entry point under the module's name; hand it to libFuzzer.
@_cdecl("fuzz_statefile_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var vector = argv
    return runFuzzer(&count, &vector, fuzzStateFile)
}
#else
/// The replayer: runs each file given once.
@main
struct ReplayStateFile {
    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            let bytes = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
            _ = bytes.withUnsafeBufferPointer { fuzzStateFile($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.count) }
        }
    }
}
#endif
