// libFuzzer target: the config decoder and settings. Whatever the bytes, decoding and
// resolving must not trap, and settings that resolve must answer the requests that read
// them. Without -DFUZZING: a replayer.
import Foundation
import ZaoanCore

private let now = Date(timeIntervalSince1970: 1_796_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    _ = JSONDuplicateKeys.first(in: Array(bytes))
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
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzer(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
               _ test: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

/// SwiftPM links an executable's entry point under the module's name; hand it to libFuzzer.
@_cdecl("fuzz_config_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var vector = argv
    return runFuzzer(&count, &vector, fuzzConfig)
}
#else
/// The replayer: runs each file given once.
@main
struct ReplayConfig {
    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            let bytes = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
            _ = bytes.withUnsafeBufferPointer { fuzzConfig($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.count) }
        }
    }
}
#endif
