import Foundation
import Glibc
import Testing

/// Each watch's timer belongs to its connection: connect–watch–disconnect, many times over,
/// must leave no watches, no timers and a flat memory.
@Suite("Live rooms: timers gone after disconnect")
struct LiveTimerTests {
    /// One cycle, ended in one of four ways: close, EOF, a further line, or close with the
    /// answer unread (the service then sees ECONNRESET rather than EOF).
    private func cycle(_ path: String, _ number: Int) throws {
        let client = try RawClient(path: path, timeout: 5)
        let requests = ["watch time HH:mm:ss", "watch countdown", "watch greeting", "watch ticker", "watch stats"]
        try client.send(requests[number % requests.count] + "\n")
        switch number % 4 {
        case 0:
            _ = try client.readLine()
            client.close()
        case 1:
            _ = try client.readLine()
            client.shutdownWrite()
            guard Live.waitForClose(client, within: 3).closed else { throw TestFailure("EOF did not end the watch") }
        case 2:
            _ = try client.readLine()
            try client.send("done\n")
            guard Live.waitForClose(client, within: 3).closed else { throw TestFailure("a further line did not end the watch") }
        default:
            // Wait until the first answer is in our queue, then close without reading it.
            _ = client.peerState(within: 3)
            client.close()
        }
    }

    /// What the heap in use may grow by over the cycles after the sample, whatever their
    /// number: what a stats answer and a second's renderings hold, not a cycle's leak.
    static let heapSlack = 16 * 1024
    /// Cycles between two samples of the heap in use after the first.
    static let heapSampleEvery = 500

    private func heapBytes(_ path: String) throws -> Int {
        let stats = try Live.stats(path)
        guard let bytes = stats["heap_bytes"].flatMap({ Int($0) }) else { throw TestFailure("stats has no heap_bytes: \(stats)") }
        return bytes
    }

    private func run(cycles: Int, sampleAt: Int) throws {
        let service = try TestService.start(arguments: ["--timezone", "UTC"])
        #expect(try service.ask("live add r +1h room") == "ok\n")
        var sampled = 0
        var heapSamples: [Int] = []
        let started = Live.now
        for number in 1...cycles {
            try cycle(service.socketPath, number)
            if number == sampleAt { sampled = try Live.residentKiB(service.pid) }
            if number >= sampleAt && (number - sampleAt) % Self.heapSampleEvery == 0 {
                heapSamples.append(try heapBytes(service.socketPath))
            }
        }
        let elapsed = Live.now - started
        // Closes are handled by the service after the client's close returns: wait for them.
        var stats: [String: String] = [:]
        let settled = eventually(timeout: 3) {
            stats = (try? Live.stats(service.socketPath)) ?? [:]
            return stats["watches"] == "0" && stats["timers"] == "0"
        }
        #expect(settled, "after \(cycles) cycles: \(stats)")
        #expect(stats["connections_open"] == "1", "only the stats connection itself: \(stats)")
        let end = try Live.residentKiB(service.pid)
        #expect(end - sampled < 3 * 1024,
                "VmRSS grew from \(sampled) KiB at cycle \(sampleAt) to \(end) KiB after \(cycles) (\(String(format: "%.1f", elapsed)) s)")
        // The resident size cannot see less than about 2 KiB a cycle (pages, the allocator's
        // reserve); the heap in use sees a leak of a few dozen bytes a cycle.
        heapSamples.append(try heapBytes(service.socketPath))
        let heapSampled = heapSamples[0], heapEnd = heapSamples[heapSamples.count - 1]
        #expect(heapSampled > 100_000, "a running service holds some heap: \(heapSampled) bytes")
        print("\(cycles) cycles: heap in use \(heapSampled) bytes at cycle \(sampleAt), \(heapEnd) at the end, every \(Self.heapSampleEvery) cycles \(heapSamples); VmRSS \(sampled) → \(end) KiB")
        // A leak grows the heap a little in every stretch of cycles. Once in a run, a table
        // reaching its next size or a part of the runtime made on first use makes one step
        // (16.7 KiB, seen once in a full suite run on a loaded machine, then flat for
        // minutes): the largest growth between two samples is not counted, so one such step
        // passes and a leak of two bytes a cycle over 10,000 cycles still fails.
        let steps = zip(heapSamples.dropFirst(), heapSamples).map { $0 - $1 }
        let growth = heapEnd - heapSampled - max(0, steps.max() ?? 0)
        #expect(growth < Self.heapSlack,
                "the heap in use grew by \(growth) bytes over \(cycles - sampleAt) cycles, its largest step left out: about \(growth / (cycles - sampleAt)) a cycle; samples \(heapSamples)")

        // The service still watches normally afterwards.
        let client = try RawClient(path: service.socketPath, timeout: 3)
        try client.send("watch time HH:mm:ss\n")
        let first = try client.readLine()
        let second = try client.readLine()
        #expect(first != second, "a watch after the cycles still updates")
        client.close()
        try service.stop()
    }

    @Test("2,000 connect–watch–disconnect cycles: watches 0, timers 0, VmRSS flat", Sanitizer.skipped("it bounds the resident memory, which the sanitizer's shadow memory and quarantine inflate"))
    func twoThousand() throws {
        try run(cycles: 2000, sampleAt: 500)
    }

    @Test("10,000 connect–watch–disconnect cycles (the issue's figure)", Sanitizer.skipped("it bounds the resident memory, which the sanitizer's shadow memory and quarantine inflate"))
    func tenThousand() throws {
        try run(cycles: 10_000, sampleAt: 500)
    }
}
