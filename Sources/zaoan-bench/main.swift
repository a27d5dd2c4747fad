import Glibc
import ZaoanSystem

// zaoan-bench: the load generator behind bench/run.sh. Results go to stdout as one line of
// key=value pairs so the script can pick them apart; errors go to stderr with exit status 1.

let usage = """
    Usage:
      zaoan-bench persistent --socket PATH [--connections N] [--threads T] [--duration S]
                             [--warmup S] [--setup LINE] [--request LINE] [--crlf] [--poll] [--spin]
          N connections over T threads (default 1); each connection sends the setup
          line once, then one request at a time. A thread with several connections waits
          with epoll (--poll: poll(2)); --spin never sleeps (non-blocking polling).
          Prints: rate=REQ/S requests= seconds= errors= gen_cpu=% reply="first reply"
      zaoan-bench oneshot --socket PATH [--iterations K] [--warmup K] [--request LINE] [--spin]
          connect, send the line, read to EOF, close; K times.
          Prints: p50_us= p90_us= p99_us= mean_us= min_us= max_us= reply=
      zaoan-bench coldstart --socket PATH [--repeat R] [--settle S] [--request LINE]
                            [--log FILE] -- COMMAND...
          start COMMAND (a socket activator listening on PATH), then time connect to the
          first answer line. Prints: median_ms= min_ms= max_ms= all_ms=a,b,c reply=
      zaoan-bench watch --socket PATH --pid SERVER-PID [--connections N] [--request LINE]
                        [--duration S]
          N connections watch LINE; each update's delay after the wall-clock second
          boundary, and the server's CPU time per tick (from /proc/PID/schedstat).
          Prints: updates= ticks= cpu_us_per_tick= p50_ms= p99_ms= max_ms=
      zaoan-bench calendar [--events N] [--series M] [--rounds R] [--write FILE]
          generate a calendar of N events, M of them recurring series (default 10,000 and
          1,000), then parse it and expand 48 hours R times (default 5), in-process.
          Prints: bytes= parse_ms= expand_ms= (medians) occurrences= problems=
                  peak_rss_growth_kib= next_ns= vdir_file_us= (one file with a VTIMEZONE
                  and an event, read 1,000 times: the median)   (--write FILE: only write the
                  calendar there)

    """

func fail(_ message: String, status: Int32 = 1) -> Never {
    _ = Posix.writeAll(2, "zaoan-bench: \(message)\n")
    exit(status)
}

func format(_ value: Double, _ decimals: Int = 1) -> String {
    var text = String(Int((value * pow(10, Double(decimals))).rounded()))
    guard decimals > 0 else { return text }
    let negative = text.hasPrefix("-")
    if negative { text.removeFirst() }
    while text.count <= decimals { text = "0" + text }
    text.insert(".", at: text.index(text.endIndex, offsetBy: -decimals))
    return (negative ? "-" : "") + text
}

/// Walks `--name value` pairs.
struct Arguments {
    var items: [String]
    var index = 0
    init(_ items: [String]) { self.items = items }
    mutating func next() -> String? {
        guard index < items.count else { return nil }
        defer { index += 1 }
        return items[index]
    }
    mutating func value(_ name: String) -> String {
        guard let value = next() else { fail("\(name) needs a value") }
        return value
    }
    mutating func int(_ name: String) -> Int {
        guard let value = Int(value(name)), value >= 0 else { fail("\(name) needs a whole number") }
        return value
    }
    mutating func double(_ name: String) -> Double {
        guard let value = Double(value(name)), value >= 0 else { fail("\(name) needs a number of seconds") }
        return value
    }
    var rest: [String] { Array(items[index...]) }
}

func quoted(_ text: String) -> String { "\"" + text + "\"" }

var arguments = Arguments(Array(CommandLine.arguments.dropFirst()))
let mode = arguments.next()
do {
    switch mode {
    case "persistent":
        var options = PersistentOptions()
        while let name = arguments.next() {
            switch name {
            case "--socket": options.socket = arguments.value(name)
            case "--connections": options.connections = max(1, arguments.int(name))
            case "--threads": options.threads = max(1, arguments.int(name))
            case "--duration": options.duration = arguments.double(name)
            case "--warmup": options.warmup = arguments.double(name)
            case "--setup": options.setup = arguments.value(name)
            case "--request": options.request = arguments.value(name)
            case "--crlf": options.crlf = true
            case "--poll": options.usePoll = true
            case "--spin": options.spin = true
            default: fail("unknown option \(name)\n\(usage)", status: 64)
            }
        }
        guard !options.socket.isEmpty else { fail("--socket is required", status: 64) }
        let cpuBefore = processCPUSeconds()
        let wallBefore = monotonicNanos()
        let result = try runPersistent(options)
        let generatorCPU = (processCPUSeconds() - cpuBefore) / (Double(monotonicNanos() - wallBefore) / 1e9)
        print("rate=\(format(result.rate)) requests=\(result.requests) seconds=\(format(result.seconds, 3)) errors=\(result.errors) gen_cpu=\(format(generatorCPU * 100))% reply=\(quoted(result.sample))")
    case "oneshot":
        var options = OneShotOptions()
        while let name = arguments.next() {
            switch name {
            case "--socket": options.socket = arguments.value(name)
            case "--iterations": options.iterations = max(1, arguments.int(name))
            case "--spin": options.spin = true
            case "--warmup": options.warmup = arguments.int(name)
            case "--request": options.request = arguments.value(name)
            case "--crlf": options.crlf = true
            default: fail("unknown option \(name)\n\(usage)", status: 64)
            }
        }
        guard !options.socket.isEmpty else { fail("--socket is required", status: 64) }
        let (summary, reply) = try runOneShot(options)
        print("p50_us=\(format(summary.percentile(50))) p90_us=\(format(summary.percentile(90))) p99_us=\(format(summary.percentile(99))) mean_us=\(format(summary.mean)) min_us=\(format(summary.samples.first!)) max_us=\(format(summary.samples.last!)) reply=\(quoted(reply))")
    case "coldstart":
        var options = ColdStartOptions()
        while let name = arguments.next() {
            switch name {
            case "--socket": options.socket = arguments.value(name)
            case "--repeat": options.repeats = max(1, arguments.int(name))
            case "--settle": options.settle = arguments.double(name)
            case "--request": options.request = arguments.value(name)
            case "--log": options.log = arguments.value(name)
            case "--":
                options.command = arguments.rest
                arguments.index = arguments.items.count
            default: fail("unknown option \(name)\n\(usage)", status: 64)
            }
        }
        guard !options.socket.isEmpty else { fail("--socket is required", status: 64) }
        let (samples, reply) = try runColdStart(options)
        let summary = LatencySummary(samples)
        print("median_ms=\(format(summary.percentile(50), 2)) min_ms=\(format(summary.samples.first!, 2)) max_ms=\(format(summary.samples.last!, 2)) all_ms=\(samples.map { format($0, 2) }.joined(separator: ",")) reply=\(quoted(reply))")
    case "watch":
        var options = WatchOptions()
        while let name = arguments.next() {
            switch name {
            case "--socket": options.socket = arguments.value(name)
            case "--connections": options.connections = max(1, arguments.int(name))
            case "--request": options.request = arguments.value(name)
            case "--duration": options.duration = arguments.double(name)
            case "--pid": options.pid = Int32(arguments.int(name))
            default: fail("unknown option \(name)\n\(usage)", status: 64)
            }
        }
        guard !options.socket.isEmpty, options.pid > 0 else { fail("--socket and --pid are required", status: 64) }
        let result = try runWatch(options)
        guard !result.delays.isEmpty else { fail("no updates arrived; is the request one that changes every second?") }
        let summary = LatencySummary(result.delays)
        let cpuPerTick = result.ticks > 0 ? result.serverCPU / Double(result.ticks) * 1e6 : 0
        print("updates=\(result.delays.count) ticks=\(format(result.ticks, 2)) cpu_us_per_tick=\(format(cpuPerTick)) p50_ms=\(format(summary.percentile(50), 2)) p99_ms=\(format(summary.percentile(99), 2)) max_ms=\(format(summary.samples.last!, 2))")
    case "calendar":
        var options = CalendarOptions()
        while let name = arguments.next() {
            switch name {
            case "--events": options.events = arguments.int(name)
            case "--series": options.series = arguments.int(name)
            case "--rounds": options.rounds = max(1, arguments.int(name))
            case "--write": options.write = arguments.next() ?? ""
            default: fail("unknown option \(name)\n\(usage)", status: 64)
            }
        }
        guard options.series <= options.events else { fail("--series must not exceed --events", status: 64) }
        if let path = options.write {
            // The same generated calendar, for bench/calendar.sh to give the real service.
            let text = Array(generatedCalendar(events: options.events, series: options.series).utf8)
            do throws(SystemError) {
                let file = try Descriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644, "opening \(path)")
                try text.withUnsafeBytes { raw in Result { () throws(SystemError) in try file.writeAll(raw, "writing \(path)") } }.get()
            } catch {
                fail("cannot write the calendar: \(error)")
            }
            print("bytes=\(text.count) path=\(path)")
            exit(0)
        }
        let result: CalendarResult
        do { result = try runCalendar(options) } catch { fail("calendar: \(error)") }
        let parse = LatencySummary(result.parseMilliseconds)
        let expand = LatencySummary(result.expandMilliseconds)
        print("bytes=\(result.bytes) parse_ms=\(format(parse.percentile(50), 2)) expand_ms=\(format(expand.percentile(50), 2)) occurrences=\(result.occurrences) problems=\(result.problems) peak_rss_growth_kib=\(result.peakGrowthKiB) next_ns=\(format(result.nextNanoseconds, 1)) vdir_file_us=\(format(LatencySummary(result.vdirFileMicroseconds).percentile(50), 1))")
    case "-h", "--help", "help":
        print(usage, terminator: "")
    default:
        fail("say which mode: persistent, oneshot, coldstart, watch or calendar\n\(usage)", status: 64)
    }
} catch {
    fail("\(error)")
}
