// libFuzzer target: the config decoder and settings. Whatever the bytes, decoding and
// resolving must not trap, and settings that resolve must answer the requests that read
// them. Without -DFUZZING: a replayer.
import Foundation
import FuzzDriver
import ZaoanCore

private let now = Date(timeIntervalSince1970: 1_796_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    _ = JSON.firstDuplicateKey(in: Array(bytes))
    if let text = String(validating: Array(bytes), as: UTF8.self) { _ = JSON.parse(text) }
    guard let file = try? ConfigFile.decode(bytes),
          let settings = try? Settings.resolve(file, environment: ["LANG": "zh_CN.UTF-8"], systemZone: TimeZone(identifier: "UTC")!)
    else { return 0 }
    let responder = Responder(settings: settings)
    let counters = ServerCounters(startedAt: now)
    for request: Request in [.greeting(city: nil), .time(pattern: nil), .status, .formatted(.i3bar, .status), .formatted(.json, .greeting(city: nil))] {
        let reply = responder.answer(request, now: now, counters: counters)
        precondition(reply.bytes.last == 0x0A)
    }
    return 0
}

#if FUZZING
@_cdecl("fuzz_config_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzzConfig)
}
#else
@main
struct Replay {
    static func main() { FuzzDriver.replay(fuzzConfig) }
}
#endif
