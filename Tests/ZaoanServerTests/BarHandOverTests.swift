import Foundation
import Testing

/// `zaoan bar` hands its stdout (the bar's pipe) to a service of its own user with the
/// watch request, and the service writes the status lines into it: the bar process sleeps.
/// The service takes only the write end of a pipe, only with a `--format=i3bar blocks`
/// watch, and a pipe nobody reads costs it one waiting line.
@Suite("bar output handed to the service")
struct BarHandOverTests {
    /// Runs a Python script (Debian's /usr/bin/python3: `socket.send_fds`) against the
    /// service; `argv[1]` is the socket path. Returns its output.
    private func python(_ script: String, service: TestService, timeout: Double = 40) throws -> String {
        let result = try service.run("/usr/bin/python3", ["-c", script, service.socketPath], timeout: timeout)
        #expect(!result.timedOut && result.status == 0, "\(result)")
        return result.output
    }


    @Test("the bar process sleeps while the service writes its lines, and takes its output back when the service stops")
    func barSleeps() throws {
        let service = try TestService.start(
            arguments: ["--language", "en", "--timezone", "UTC"],
            config: #"{"bar_blocks": ["time HH:mm:ss", "greeting"]}"#)
        var serviceStopped = false
        defer { if !serviceStopped { try? service.stop() } }
        let bar = try RunningZaoan(["bar", "--socket", service.socketPath], environment: service.environment, scratch: service.directory)
        defer { _ = bar.terminate() }
        #expect(bar.line(within: 5) { $0.contains("0-time") } != nil, "\(bar.lines.suffix(3)); stderr: \(bar.errorText)")
        Thread.sleep(forTimeInterval: 1.5)
        let linesBefore = bar.lines.count
        let before = WakeupTests.voluntarySwitches(bar.process.processIdentifier)
        Thread.sleep(forTimeInterval: 5)
        let wakeups = WakeupTests.voluntarySwitches(bar.process.processIdentifier) - before
        _ = bar.line(within: 2) { _ in bar.lines.count >= linesBefore + 3 }
        let written = bar.lines.count - linesBefore
        print("zaoan bar handed over: \(wakeups) wake-ups in 5 s while \(written) lines came")
        #expect(written >= 3, "the service kept writing: \(bar.lines.suffix(4))")
        #expect(wakeups <= 1, "the bar process woke \(wakeups) times in 5 s; it should sleep while the service writes")
        let clocks = bar.lines.suffix(written).compactMap { $0.firstMatch(of: /"0-time","full_text":"(\d\d:\d\d:\d\d)"/)?.1 }
        #expect(Set(clocks).count >= 3, "a new second on each line: \(clocks)")
        #expect(bar.lines.suffix(written).allSatisfy { $0.hasPrefix("[") && $0.hasSuffix("],") }, "\(bar.lines.suffix(written))")

        try service.stop()
        serviceStopped = true
        let down = bar.line(within: 8) { $0.contains("zaoan: service down") }
        #expect(down?.hasPrefix("[") == true && down?.hasSuffix("],") == true, "the bar writes again: \(bar.lines.suffix(3))")
    }

    @Test("a descriptor that is not a pipe's write end, or comes with another request, is closed and the answer stays on the socket")
    func otherDescriptorsRefused() throws {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"])
        defer { try? service.stop() }
        let baseline = try service.settledDescriptors()
        let output = try python(#"""
import os, socket, sys, tempfile
path = sys.argv[1]
def ask(line, fds):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    socket.send_fds(s, [line.encode() + b"\n"], fds)
    s.settimeout(10)
    first = s.makefile("rb").readline().decode().rstrip("\n")
    s.close()
    return first
scratch = tempfile.mkdtemp()
regular = os.open(os.path.join(scratch, "f"), os.O_WRONLY | os.O_CREAT)
read_end, write_end = os.pipe()
null = os.open("/dev/null", os.O_WRONLY)
watch = "watch --format=i3bar blocks time HH:mm:ss"
print("file:", ask(watch, [regular]))
print("read end:", ask(watch, [read_end]))
print("devnull:", ask(watch, [null]))
print("not blocks:", ask("watch --format=i3bar time HH:mm:ss", [write_end]))
print("not a watch:", ask("ping", [write_end]))
print("many:", ask("ping", [write_end] * 20))
for _ in range(300):
    ask("ping", [write_end, regular])
# A descriptor with each half of a line: the second arrives while the first is held.
for _ in range(100):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    socket.send_fds(s, [b"pi"], [write_end])
    socket.send_fds(s, [b"ng\n"], [regular])
    s.settimeout(10)
    assert s.makefile("rb").readline() == b"pong\n"
    s.close()
os.set_blocking(read_end, False)
try:
    leaked = os.read(read_end, 4096)
except BlockingIOError:
    leaked = b""
print("pipe got:", len(leaked), "file got:", os.path.getsize(os.path.join(scratch, "f")))
"""#, service: service)
        let lines = output.split(separator: "\n").map(String.init)
        for label in ["file:", "read end:", "devnull:", "not blocks:"] {
            let line = lines.first { $0.hasPrefix(label) } ?? ""
            #expect(line.contains(#"[{"name":"zaoan""#) || line.contains(#"{"name":"zaoan""#), "answered on the socket: \(line)")
        }
        #expect(lines.contains("not a watch: pong") && lines.contains("many: pong"), "\(output)")
        #expect(lines.contains("pipe got: 0 file got: 0"), "nothing written to a descriptor it refused: \(output)")
        // Every descriptor passed was closed: the service holds what it held before.
        let deadline = Date().addingTimeInterval(10)
        while service.openDescriptors > baseline, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        #expect(service.openDescriptors == baseline, "descriptors: \(baseline) before, \(service.openDescriptors) after")
    }

    @Test("a hand-over of two, or of 253, descriptors is refused: every one closed, the watch answered on the socket, nothing written to them")
    func severalDescriptorsRefused() throws {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"])
        defer { try? service.stop() }
        let baseline = try service.settledDescriptors()
        let output = try python(#"""
import array, os, socket, sys
path = sys.argv[1]
watch = b"watch --format=i3bar blocks time HH:mm:ss\n"
def answer(s):
    s.settimeout(10)
    first = s.makefile("rb").readline().decode().rstrip("\n")
    s.close()
    return first
def hand_over(fds):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    socket.send_fds(s, [watch], fds)
    return answer(s)
# One pipe's write end, alone: taken (the control), through a pipe of its own.
kept_read, kept_write = os.pipe()
print("one:", hand_over([kept_write]))
read_end, write_end = os.pipe()
nulls = [os.open("/dev/null", os.O_WRONLY) for _ in range(252)]
print("two:", hand_over([write_end, write_end]))
print("pipe and null:", hand_over([write_end, nulls[0]]))
print("253:", hand_over([write_end] * 253))
print("pipe first of 253:", hand_over([write_end] + nulls))
# Two SCM_RIGHTS items in one message (the kernel delivers them as one).
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(path)
rights = (socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [write_end]).tobytes())
s.sendmsg([watch], [rights, rights])
print("two items:", answer(s))
os.set_blocking(read_end, False)
try:
    leaked = os.read(read_end, 4096)
except BlockingIOError:
    leaked = b""
print("pipe got:", len(leaked))
"""#, service: service)
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.first == "one: ok writing to the bar's output", "one descriptor is taken: \(output)")
        for label in ["two:", "pipe and null:", "253:", "pipe first of 253:", "two items:"] {
            let line = lines.first { $0.hasPrefix(label) } ?? "\(label) (missing)"
            #expect(line.contains(#"{"name":"zaoan""#), "refused, answered on the socket: \(line)")
        }
        #expect(lines.contains("pipe got: 0"), "nothing written to a pipe handed over with others: \(output)")
        // Every descriptor that arrived was closed: the service holds what it held before.
        #expect(eventually(timeout: 10, interval: 0.1) { service.openDescriptors == baseline },
                "descriptors: \(baseline) before, \(service.openDescriptors) after")
        #expect(try service.ask("ping") == "pong\n")
    }

    @Test("a handed-over pipe nobody reads keeps one waiting line; the service answers others meanwhile")
    func unreadPipe() throws {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"])
        defer { try? service.stop() }
        let output = try python(#"""
import fcntl, os, socket, sys, time
path = sys.argv[1]
read_end, write_end = os.pipe()
fcntl.fcntl(write_end, 1031, 4096)  # F_SETPIPE_SZ: one page, full in a few seconds
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(path)
blocks = " ; ".join(["time HH:mm:ss"] * 16)
socket.send_fds(s, [("watch --format=i3bar blocks " + blocks + "\n").encode()], [write_end])
os.close(write_end)
s.settimeout(10)
print("socket:", s.makefile("rb").readline().decode().rstrip("\n"))
worst = 0.0
end = time.time() + 8
while time.time() < end:
    started = time.time()
    p = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    p.settimeout(10)
    p.connect(path)
    p.sendall(b"ping\n")
    assert p.recv(100) == b"pong\n"
    p.close()
    worst = max(worst, time.time() - started)
    time.sleep(0.2)
print("worst ping: %.3f" % worst)
os.set_blocking(read_end, False)
data = os.read(read_end, 65536)
lines = data.decode().split("\n")
print("backlog lines:", len(lines) - 1, "complete:", all(l.startswith("[") and l.endswith("],") for l in lines[:-1]), "rest:", repr(lines[-1]))
os.set_blocking(read_end, True)
caught_up = time.time()
fresh = b""
while not fresh.endswith(b"\n"):
    fresh += os.read(read_end, 65536)
print("next line after: %.2f s" % (time.time() - caught_up))
print("next:", fresh.decode().split("\n")[-2][:120])
print("now:", time.strftime("%H:%M:%S", time.gmtime()))
"""#, service: service)
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.first == "socket: ok writing to the bar's output", "\(output)")
        let worst = lines.first { $0.hasPrefix("worst ping: ") }.flatMap { Double($0.dropFirst(12)) } ?? 99
        #expect(worst < 2, "pings answered while the pipe was full: \(output)")
        #expect(lines.contains { $0.hasPrefix("backlog lines: ") && $0.contains("complete: True") && $0.hasSuffix("rest: ''") },
                "only whole lines in the pipe, never half of one: \(output)")
        let after = lines.first { $0.hasPrefix("next line after: ") }.flatMap { Double($0.dropFirst(17).dropLast(2)) } ?? 99
        #expect(after < 3, "the waiting line came as soon as the pipe had room: \(output)")
        let shown = lines.first { $0.hasPrefix("next:") }?.firstMatch(of: /(\d\d:\d\d:\d\d)/)?.1
        let now = lines.first { $0.hasPrefix("now:") }?.firstMatch(of: /(\d\d:\d\d:\d\d)/)?.1
        #expect(shown != nil && now != nil && secondsApart(String(shown!), String(now!)) <= 3,
                "after the backlog, the newest line, not a stale one: shown \(String(describing: shown)), now \(String(describing: now))")
    }

    private func secondsApart(_ a: String, _ b: String) -> Int {
        func seconds(_ text: String) -> Int {
            let parts = text.split(separator: ":").compactMap { Int($0) }
            return parts.count == 3 ? parts[0] * 3600 + parts[1] * 60 + parts[2] : -100_000
        }
        let difference = abs(seconds(a) - seconds(b))
        return min(difference, 86_400 - difference)
    }
}
