// libFuzzer target: the calendar reader, as the reader process runs it. The first byte picks
// the clock and the zone; the rest is a calendar file, parsed by libical into a
// CalendarDocument and expanded over the 48 hours that follow, under the reader's budgets.
// Whatever the bytes, nothing may trap, and what comes out keeps the documented limits:
// at most `occurrencesPerWindow`, in order, inside the window, texts bounded and without
// controls but TAB. libFuzzer's -timeout (fuzz/run.sh: 20 s) catches an input the CPU budgets do
// not bound. Without -DFUZZING: a replayer.
import FuzzDriver
import ZaoanCalendar

/// 2026-12-01 00:00 UTC, a DST change in Europe (2026-03-29 00:30 UTC), the start of 1970
/// and a moment near the end of the years a calendar is read for.
private let clocks: [Int64] = [1_796_083_200, 1_774_744_200, 0, 13_569_465_600]
private let zones = ["Europe/Berlin", "UTC", "America/New_York", "Asia/Shanghai"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCalendar(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let choice = Int(data[0])
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    guard let document = try? CalendarDocument(parsing: bytes, source: "/fuzz/input.ics"),
          let zone = try? CalendarZone(named: zones[(choice >> 2) & 3]),
          let window = try? CalendarWindow(from: clocks[choice & 3], to: clocks[choice & 3] + CalendarLimits.defaultWindowSeconds)
    else { return 0 }
    let expansion = document.occurrences(in: window, defaultZone: zone)
    check(expansion, window: window)
    return 0
}

private func check(_ expansion: CalendarExpansion, window: CalendarWindow) {
    let occurrences = expansion.occurrences
    precondition(occurrences.count <= CalendarLimits.occurrencesPerWindow, "more occurrences than the limit")
    for (index, event) in occurrences.enumerated() {
        precondition(event.end >= event.start, "an occurrence ends before it starts")
        precondition(window.shows(start: event.start, end: event.end), "an occurrence outside the window")
        if index > 0 { precondition(occurrences[index - 1].start <= event.start, "occurrences out of order") }
        if let title = event.title {
            precondition(title.utf8.count <= CalendarLimits.titleBytes && title.count <= CalendarLimits.titleCharacters, "a title over its limits")
            // TAB stays (SafeText keeps it; the tab-separated answers replace it themselves).
            precondition(!title.unicodeScalars.contains { ($0.value < 0x20 && $0.value != 0x09) || $0.value == 0x7F }, "a control in a title")
        }
        precondition((event.description?.utf8.count ?? 0) <= CalendarLimits.descriptionBytes, "a description over its limit")
        precondition((event.url?.utf8.count ?? 0) <= CalendarLimits.urlBytes, "a URL over its limit")
        precondition(event.uid.utf8.count <= CalendarLimits.uidBytes, "a UID over its limit")
    }
    for problem in expansion.problems { precondition(!problem.description.isEmpty) }
}

#if FUZZING
@_cdecl("fuzz_calendar_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzzCalendar)
}
#else
@main
struct Replay {
    static func main() { FuzzDriver.replay(fuzzCalendar) }
}
#endif
