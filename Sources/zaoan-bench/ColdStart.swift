import Glibc
import ZaoanClient
import ZaoanSystem

/// Cold-start mode: start a socket activator (e.g. `systemd-socket-activate -l PATH zaoan
/// serve`), wait until its socket exists and it sits idle, then time connect → first answer
/// line: the service is started by that connection. Stops the process and repeats.
struct ColdStartOptions {
    var socket = ""
    var repeats = 5
    var settle = 0.15  // seconds between the socket appearing and the request
    var request = "ping"
    var log = "/dev/null"
    var command: [String] = []
}

private func spawn(_ command: [String], log: String) throws(SystemError) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    var argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid = pid_t()
    try errorNumberCall("starting \(command[0])") { posix_spawnp(&pid, command[0], &actions, nil, &argv, environ) }
    return pid
}

/// SIGTERM, then SIGKILL if it has not exited within two seconds.
private func stop(_ pid: pid_t) {
    kill(pid, SIGTERM)
    var status: Int32 = 0
    for _ in 0..<200 {
        if waitpid(pid, &status, WNOHANG) == pid { return }
        usleep(10_000)
    }
    kill(pid, SIGKILL)
    waitpid(pid, &status, 0)
}

private func isSocket(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK
}

func runColdStart(_ options: ColdStartOptions) throws -> ([Double], String) {
    guard !options.command.isEmpty else { throw ClientError.badArgument("coldstart needs a command after --") }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    defer { buffer.deallocate() }
    let line = requestBytes(options.request, crlf: false)
    var samples: [Double] = []
    var sample = ""
    for _ in 0..<options.repeats {
        unlink(options.socket)
        let pid = try spawn(options.command, log: options.log)
        let appearBy = monotonicNanos() + 5_000_000_000
        while !isSocket(options.socket) {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                throw ClientError.io(path: options.socket, reason: "\(options.command[0]) exited before creating the socket (see \(options.log))")
            }
            guard monotonicNanos() < appearBy else {
                stop(pid)
                throw ClientError.io(path: options.socket, reason: "the socket did not appear within 5 s")
            }
            usleep(1000)
        }
        usleep(UInt32(options.settle * 1e6))

        let start = monotonicNanos()
        let answered: Bool
        do {
            let connection = try BenchConnection(options.socket)
            answered = line.withUnsafeBytes { connection.sendAll($0) } && connection.readLines(1, buffer)
            connection.close()
        } catch {
            stop(pid)
            throw error
        }
        let end = monotonicNanos()
        stop(pid)
        guard answered else { throw ClientError.io(path: options.socket, reason: "no answer from the activated service (see \(options.log))") }
        if sample.isEmpty { sample = printable(UnsafeRawBufferPointer(buffer)) }
        samples.append(Double(end - start) / 1e6)
    }
    unlink(options.socket)
    return (samples, sample)
}
