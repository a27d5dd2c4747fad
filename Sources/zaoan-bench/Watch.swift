import Glibc
import ZaoanSystem

/// `watch` mode: N connections each send `watch REQUEST`, then for D seconds every update
/// line is timestamped against the wall-clock second boundary it follows. The server's CPU
/// time over the run divided by the ticks gives CPU per tick, where the ticks are the updates
/// received over the watchers: a second in which only a straggler or two arrived is not a
/// tick, and counting it would understate the cost of the others.
struct WatchOptions {
    var socket = ""
    var connections = 1
    var request = "time HH:mm:ss"
    var duration = 5.0
    var pid: Int32 = 0
}

struct WatchResult {
    var delays: [Double] = []  // ms after the second boundary, one per update received
    var ticks = 0.0
    var serverCPU = 0.0  // seconds
}

/// Time the process has run on a CPU, in seconds, from /proc/PID/schedstat (nanoseconds,
/// unlike /proc/PID/stat's 10 ms ticks, which are too coarse for one render per second).
func processCPUSeconds(pid: Int32) -> Double? {
    guard let file = fopen("/proc/\(pid)/schedstat", "r") else { return nil }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 256)
    guard fgets(&buffer, Int32(buffer.count), file) != nil,
          let first = String(cString: buffer).split(separator: " ").first,
          let nanoseconds = Double(first) else { return nil }
    return nanoseconds / 1e9
}

func wallClockSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

func runWatch(_ options: WatchOptions) throws -> WatchResult {
    guard let epoll = Epoll(capacity: 256) else { throw SystemError(errno: ENOSYS, "epoll is not available") }
    defer { epoll.close() }
    var connections: [BenchConnection] = []
    defer { connections.forEach { $0.close() } }
    let line = requestBytes("watch " + options.request, crlf: false)
    for index in 0..<options.connections {
        let connection = try BenchConnection(options.socket)
        connections.append(connection)
        _ = line.withUnsafeBytes { connection.sendAll($0) }
        guard epoll.addReadable(connection.fd, token: UInt64(index)) else { throw syscallFailure("epoll_ctl") }
    }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    defer { buffer.deallocate() }
    // Skip the first answers (sent at once, not on a boundary): start at the next second.
    let start = wallClockSeconds().rounded(.down) + 1
    let end = start + options.duration
    while wallClockSeconds() < start {
        _ = epoll.wait(timeout: 10) { token in
            _ = connections[Int(token)].receive(buffer)
            return true
        }
    }
    let cpuBefore = processCPUSeconds(pid: options.pid) ?? 0
    var result = WatchResult()
    while wallClockSeconds() < end {
        let ok = epoll.wait(timeout: 50) { token in
            let connection = connections[Int(token)]
            guard let count = connection.receive(buffer), count > 0 else { return true }
            let now = wallClockSeconds()
            let lines = connection.lines(in: UnsafeRawBufferPointer(rebasing: buffer[0..<count])) ?? 0
            for _ in 0..<lines {
                result.delays.append((now - now.rounded(.down)) * 1000)
            }
            return true
        }
        guard ok else { throw syscallFailure("epoll_wait") }
    }
    result.serverCPU = (processCPUSeconds(pid: options.pid) ?? 0) - cpuBefore
    result.ticks = Double(result.delays.count) / Double(options.connections)
    return result
}
