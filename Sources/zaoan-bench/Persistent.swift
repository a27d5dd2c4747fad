import Glibc
import ZaoanClient
import ZaoanSystem

/// Persistent mode: `connections` connections, each sends `setup` once (answered by one line)
/// and then one request at a time, waiting for its one-line answer before the next.
///
/// Connections are spread over `threads` threads (default one). A thread with one connection
/// uses send/recv on it; a thread with several waits on them with epoll, so 64 connections do
/// not need 64 threads competing with a single-threaded server for 2 cores.
///
/// bench/run.sh pins the server to one CPU and this generator (with `spin`) to the other:
/// the generator then always has a request ready, the server runs at ~100% of its CPU, and
/// the rate is the server's capacity rather than the cost of waking sleeping vCPUs.
struct PersistentOptions {
    var socket = ""
    var connections = 1
    var threads = 1
    var duration = 3.0
    var warmup = 0.5
    var setup: String?
    var request = "ping"
    var crlf = false
    var usePoll = false  // wait with poll(2) instead of epoll (for comparison)
    /// Never sleep: poll sockets without blocking. Keeps the generator's CPU awake, so each
    /// answer is seen at once instead of after a wakeup (costly across vCPUs in a VM).
    var spin = false
}

struct PersistentResult {
    var requests: Int
    var seconds: Double
    var errors: Int
    var sample: String
    var rate: Double { Double(requests) / seconds }
}

/// One generator thread's connections and results. Written by its thread only until join.
private final class Worker: @unchecked Sendable {
    let paths: String
    let connectionCount: Int
    let options: PersistentOptions
    let barrier: UnsafeMutablePointer<pthread_barrier_t>
    var connections: [BenchConnection] = []
    var requests = 0
    var seconds = 0.0
    var errors = 0
    var sample = ""
    var failure: String?

    init(connections: Int, options: PersistentOptions, barrier: UnsafeMutablePointer<pthread_barrier_t>) {
        self.paths = options.socket
        self.connectionCount = connections
        self.options = options
        self.barrier = barrier
    }

    func run() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        prepare(buffer)
        pthread_barrier_wait(barrier)
        guard failure == nil else { return }
        if connections.count == 1 { runBlocking(buffer) } else { runPolling(buffer) }
        for connection in connections { connection.close() }
    }

    private func prepare(_ buffer: UnsafeMutableRawBufferPointer) {
        do throws(ClientError) {
            for _ in 0..<connectionCount {
                let connection = try BenchConnection(paths)
                connections.append(connection)
                if let setup = options.setup {
                    let line = requestBytes(setup, crlf: options.crlf)
                    let ok = line.withUnsafeBytes { connection.sendAll($0) } && connection.readLines(1, buffer)
                    guard ok else { throw .io(path: paths, reason: "no answer to the setup line '\(setup)'") }
                }
            }
        } catch {
            failure = error.description
        }
    }

    @inline(__always)
    private func isError(_ first: UInt8) -> Bool {
        first == UInt8(ascii: "E") || first == UInt8(ascii: "-")  // "ERR ..." or Redis "-ERR ..."
    }

    private func runBlocking(_ buffer: UnsafeMutableRawBufferPointer) {
        let connection = connections[0]
        let line = requestBytes(options.request, crlf: options.crlf)
        var window = MeasurementWindow(warmup: options.warmup, duration: options.duration)
        var count = 0
        line.withUnsafeBytes { request in
            while true {
                guard connection.sendAll(request), connection.readLines(1, buffer, spin: options.spin) else {
                    failure = "connection closed by the server"
                    return
                }
                if count == 0 { sample = printable(UnsafeRawBufferPointer(buffer)) }
                if isError(buffer[0]) { errors += 1 }
                count += 1
                if let (measured, elapsed) = window.check(count: count) {
                    requests = measured
                    seconds = elapsed
                    return
                }
            }
        }
    }

    /// Several connections on this thread: send a request on each, then answer every reply
    /// with the next request as replies come in (epoll; poll(2) if libc lacks epoll).
    private func runPolling(_ buffer: UnsafeMutableRawBufferPointer) {
        let line = requestBytes(options.request, crlf: options.crlf)
        let epoll = options.usePoll ? nil : Epoll(capacity: connections.count)
        defer { epoll?.close() }
        var polls = connections.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        var window = MeasurementWindow(warmup: options.warmup, duration: options.duration)
        var count = 0
        line.withUnsafeBytes { request in
            /// Takes what arrived on one connection; sends its next request once the reply is whole.
            func service(_ connection: BenchConnection) -> Bool {
                guard let n = connection.receive(buffer, dontWait: true) else { return true }  // nothing yet
                guard n > 0, let lines = connection.lines(in: UnsafeRawBufferPointer(rebasing: buffer[0..<n])) else {
                    failure = "connection closed by the server"
                    return false
                }
                // One request is outstanding per connection, so one line completes it. A reply
                // split across reads has no LF in its first part: wait for the rest.
                guard lines > 0 else { return true }
                if count == 0 { sample = printable(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) }
                if isError(buffer[0]) { errors += 1 }
                count += lines
                guard connection.sendAll(request) else {
                    failure = "send failed"
                    return false
                }
                return true
            }

            for (index, connection) in connections.enumerated() {
                if let epoll, !epoll.addReadable(connection.fd, token: UInt64(index)) {
                    failure = syscallFailure("epoll_ctl").description
                    return
                }
                guard connection.sendAll(request) else {
                    failure = "send failed"
                    return
                }
            }
            while true {
                if let epoll {
                    let connections = self.connections
                    guard epoll.wait(timeout: options.spin ? 0 : 1000, { service(connections[Int($0)]) }) else {
                        if failure == nil { failure = syscallFailure("epoll_wait").description }
                        return
                    }
                } else {
                    let timeout: Int32 = options.spin ? 0 : 1000
                    do throws(SystemError) { _ = try syscall("poll") { poll(&polls, nfds_t(polls.count), timeout) } } catch {
                        failure = error.description
                        return
                    }
                    for index in polls.indices where polls[index].revents != 0 {
                        guard service(connections[index]) else { return }
                    }
                }
                if let (measured, elapsed) = window.check(count: count) {
                    requests = measured
                    seconds = elapsed
                    return
                }
            }
        }
    }
}

/// Warm-up, then a measured stretch: counts only what completes inside it.
struct MeasurementWindow {
    private let measureFrom: UInt64
    private let stopAt: UInt64
    private var mark: UInt64 = 0
    private var countAtMark = 0

    init(warmup: Double, duration: Double) {
        measureFrom = monotonicNanos() + UInt64(warmup * 1e9)
        stopAt = measureFrom + UInt64(duration * 1e9)
    }

    /// Call after each completed request with the running count. Returns the requests and
    /// seconds measured once the window is over, nil until then.
    mutating func check(count: Int) -> (requests: Int, seconds: Double)? {
        let now = monotonicNanos()
        if mark == 0 && now >= measureFrom {
            mark = now
            countAtMark = count
        }
        guard now >= stopAt else { return nil }
        return (count - countAtMark, Double(now - mark) / 1e9)
    }
}

private func workerEntry(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Unmanaged<Worker>.fromOpaque(argument!).takeUnretainedValue().run()
    return nil
}

func runPersistent(_ options: PersistentOptions) throws -> PersistentResult {
    let threadCount = max(1, min(options.connections, options.threads))
    let barrier = UnsafeMutablePointer<pthread_barrier_t>.allocate(capacity: 1)
    defer { barrier.deallocate() }
    pthread_barrier_init(barrier, nil, UInt32(threadCount))
    defer { pthread_barrier_destroy(barrier) }

    var workers: [Worker] = []
    for index in 0..<threadCount {
        // Spread connections as evenly as the count allows.
        let share = options.connections / threadCount + (index < options.connections % threadCount ? 1 : 0)
        workers.append(Worker(connections: share, options: options, barrier: barrier))
    }
    var threads: [pthread_t] = []
    for worker in workers {
        var thread = pthread_t()
        try errorNumberCall("pthread_create") { pthread_create(&thread, nil, { workerEntry($0) }, Unmanaged.passUnretained(worker).toOpaque()) }
        threads.append(thread)
    }
    for thread in threads { pthread_join(thread, nil) }

    if let failure = workers.compactMap(\.failure).first {
        throw ClientError.io(path: options.socket, reason: failure)
    }
    // Each thread measured its own window of about `duration`; add up the rates.
    let rate = workers.reduce(0.0) { $0 + Double($1.requests) / $1.seconds }
    let seconds = workers.reduce(0.0) { $0 + $1.seconds } / Double(workers.count)
    return PersistentResult(
        requests: Int((rate * seconds).rounded()),
        seconds: seconds,
        errors: workers.reduce(0) { $0 + $1.errors },
        sample: workers[0].sample
    )
}
