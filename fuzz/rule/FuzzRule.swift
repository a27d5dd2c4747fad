// libFuzzer target: zaoan's recurrence engine alone. The first eight bytes pick DTSTART
// (year 1890–2150, month, day, time) and a `from` some days after it; the rest is an RRULE
// value, read by RuleParts and expanded by RuleIterator. Whatever the bytes, nothing may
// trap, the rule's text reads back to the same rule, and the engine keeps its promises:
// DTSTART first (unless UNTIL is before it), then starts strictly in order, none past UNTIL or COUNT, its steps within
// the budget, and an iterator begun at `from` gives what the full one gives from there.
// Without -DFUZZING: a replayer.
import FuzzDriver
import ZaoanRecurrence

private let budget = 20_000

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRule(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 8 else { return 0 }
    let head = Array(UnsafeBufferPointer(start: data, count: 8))
    let text = String(decoding: UnsafeBufferPointer(start: data + 8, count: size - 8), as: UTF8.self)
    let reading = RuleParts.read(text)
    guard let parts = reading.parts else {
        precondition(!reading.problems.isEmpty, "a rule refused without a reason")
        return 0
    }
    let again = RuleParts.read(parts.text)
    precondition(again.parts == parts && again.problems.isEmpty, "the rule's text does not read back to it: \(parts.text)")
    let year = 1890 + (Int(head[0]) << 8 | Int(head[1])) % 260
    guard let start = LocalDateTime(year: year, month: 1 + Int(head[2]) % 12, day: 1 + Int(head[3]) % 31,
                                    hour: Int(head[4]) % 24, minute: Int(head[5]) % 60, second: Int(head[6]) % 4 * 15) else { return 0 }
    var full = RuleIterator(parts: parts, start: start, budget: budget)
    var walls: [LocalDateTime] = []
    while walls.count < 400, let wall = full.next() { walls.append(wall) }
    // DTSTART is the first instance, unless a DATE or floating UNTIL ends the series before
    // it begins (then it has none, as a UTC UNTIL before it reads in SeriesExpander).
    var endsBeforeStart = false
    switch parts.until {
    case .day(let day)?: endsBeforeStart = day < start.day
    case .wall(let until)?: endsBeforeStart = until < start
    default: break
    }
    precondition(endsBeforeStart ? walls.isEmpty : walls.first == start, "DTSTART is not the first instance")
    for (earlier, later) in zip(walls, walls.dropFirst()) { precondition(earlier < later, "instances out of order or repeated") }
    if let count = parts.count { precondition(walls.count <= count, "more instances than COUNT") }
    if case .wall(let until)? = parts.until { precondition(walls.dropFirst().allSatisfy { $0 <= until }, "an instance past UNTIL") }
    precondition(full.steps <= budget + 1, "the engine stepped past its budget")
    // Begun at `from`, the engine gives the same starts from there (where the full run
    // reached past it without giving up).
    let days = Int64(head[7]) * 40
    guard !full.exhausted, walls.count < 400, let from = LocalDateTime(secondsAsIfUTC: start.secondsAsIfUTC + days * 86_400) else { return 0 }
    var skipping = RuleIterator(parts: parts, start: start, from: from, budget: budget)
    var skipped: [LocalDateTime] = []
    while skipped.count < 400, let wall = skipping.next() { skipped.append(wall) }
    if !skipping.exhausted {
        precondition(skipped.filter { $0 >= from } == walls.filter { $0 >= from }, "the iterator begun at \(from) gives other starts")
    }
    return 0
}

#if FUZZING
@_cdecl("fuzz_rule_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzzRule)
}
#else
@main
struct Replay {
    static func main() { FuzzDriver.replay(fuzzRule) }
}
#endif
