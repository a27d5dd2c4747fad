import Glibc
import ZaoanClient

/// One-shot mode: connect, send one line, read until the server closes, close; K times in a row.
struct OneShotOptions {
    var socket = ""
    var iterations = 2000
    var warmup = 200
    var request = "ping"
    var crlf = false
    var spin = false
}

struct LatencySummary {
    var samples: [Double]  // microseconds, sorted
    init(_ samples: [Double]) { self.samples = samples.sorted() }
    func percentile(_ p: Double) -> Double {
        guard !samples.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(samples.count)).rounded(.up)) - 1
        return samples[min(max(rank, 0), samples.count - 1)]
    }
    var mean: Double { samples.reduce(0, +) / Double(samples.count) }
}

func runOneShot(_ options: OneShotOptions) throws -> (LatencySummary, String) {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    defer { buffer.deallocate() }
    let line = requestBytes(options.request, crlf: options.crlf)
    var samples: [Double] = []
    samples.reserveCapacity(options.iterations)
    var sample = ""
    for index in 0..<(options.warmup + options.iterations) {
        let start = monotonicNanos()
        let connection = try BenchConnection(options.socket)
        let sent = line.withUnsafeBytes { connection.sendAll($0) }
        let received = sent ? connection.readToEOF(buffer, spin: options.spin) : -1
        connection.close()
        let end = monotonicNanos()
        guard received > 0 else {
            throw ClientError.io(path: options.socket, reason: "one-shot request \(index): \(sent ? "no answer before the server closed" : "send failed")")
        }
        if index == 0 { sample = printable(UnsafeRawBufferPointer(buffer)) }
        if index >= options.warmup { samples.append(Double(end - start) / 1000) }
    }
    return (LatencySummary(samples), sample)
}
