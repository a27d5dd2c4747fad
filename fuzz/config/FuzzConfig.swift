// libFuzzer target: the config path. Whatever the bytes:
// - JSONReader reads them in both dialects without trapping; an error's line and column lie
//   inside the text; what strict JSON reads, JSONC reads the same, and so does the clients'
//   one-line reading (`JSONReader.line`) within its depth.
// - ConfigFile.read and Settings.resolving never trap (serve starts with any file), every
//   problem is placed inside the text, and the settings answer the requests that read them.
// - BarConfig.read, what `zaoan bar` runs, never traps.
// Without -DFUZZING: a replayer.
import FuzzDriver
import ZaoanCore

private let now = Instant(secondsSince1970: 1_796_000_000)
private let utc = Zone.utc

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let lines = bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
    func inside(_ position: TextPosition) -> Bool {
        position.line >= 1 && position.line <= lines && position.column >= 1 && position.column <= size + 1
    }

    let strict: JSONValue?
    do {
        strict = try JSONReader.read(bytes, dialect: .strict)
    } catch {
        precondition(inside(error.position), "error outside the text: \(error)")
        strict = nil
    }
    do {
        let jsonc = try JSONReader.read(bytes, dialect: .jsonc)
        if let strict { precondition(strict == jsonc, "JSONC read strict JSON differently") }
    } catch {
        precondition(inside(error.position), "error outside the text: \(error)")
        precondition(strict == nil, "JSONC refused strict JSON: \(error)")
    }
    if let strict, depth(strict) <= JSONReader.Limits.line.maxDepth {
        precondition(JSONReader.line(String(decoding: bytes, as: UTF8.self)) == strict, "the line reader and strict JSON disagree")
    }

    let reading = ConfigFile.read(bytes)
    for problem in reading.problems {
        precondition(problem.position.map(inside) ?? true, "problem outside the text: \(problem)")
        precondition(problem.fallback != nil, "a problem without what stands instead: \(problem)")
    }
    _ = try? BarConfig.read(bytes)
    let resolved = Settings.resolving(reading.file, positions: reading.positions,
                                      environment: ["LANG": "zh_CN.UTF-8"], systemZone: utc)
    for problem in resolved.problems { precondition(problem.fallback != nil, "\(problem)") }
    let responder = Responder(settings: resolved.settings)
    var counters = ServiceFigures(startedAt: now)
    counters.configProblems = (reading.problems + resolved.problems).map { $0.inFile("/c.json").report }
    for request: Request in [.greeting(city: nil), .time(pattern: nil), .status, .stats, .formatted(.i3bar, .status),
                             .formatted(.json, .greeting(city: nil))] {
        let reply = responder.answer(request, now: now, counters: counters)
        precondition(reply.bytes.last == 0x0A)
    }
    return 0
}

/// How deep containers nest in `value` (a scalar: 0).
private func depth(_ value: JSONValue) -> Int {
    switch value.kind {
    case .array(let items): return 1 + (items.map(depth).max() ?? 0)
    case .object(let members): return 1 + (members.map { depth($0.value) }.max() ?? 0)
    default: return 0
    }
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
