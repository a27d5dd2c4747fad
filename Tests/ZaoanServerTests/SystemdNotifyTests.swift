import Foundation
import Glibc
import Testing

/// What zaoan tells its service manager, read from a notification socket the test owns
/// (NOTIFY_SOCKET), with the real binary.
@Suite("systemd notifications")
struct SystemdNotifyTests {
    /// A `zaoan serve` on its own socket with NOTIFY_SOCKET pointing at a receiver.
    final class NotifiedService {
        let directory: TemporaryDirectory
        let socketPath: String
        let receiver: NotifyReceiver
        let process: SpawnedProcess
        var log: String { (try? String(contentsOfFile: directory.file("log"), encoding: .utf8)) ?? "" }

        /// - Parameters:
        ///   - watchdogPID: nil leaves WATCHDOG_PID unset; "self" sets it to zaoan's own pid
        ///     (through `sh -c 'export WATCHDOG_PID=$$; exec zaoan ...'`, as systemd sets it
        ///     for the main process); anything else is used as is.
        init(watchdogMicroseconds: Int? = nil, watchdogPID: String? = nil) throws {
            directory = try TemporaryDirectory()
            socketPath = directory.file("s")
            receiver = try NotifyReceiver(path: directory.file("notify"))
            var environment = try TestService.isolatedEnvironment(in: directory)
            environment["NOTIFY_SOCKET"] = receiver.path
            if let watchdogMicroseconds { environment["WATCHDOG_USEC"] = "\(watchdogMicroseconds)" }
            var arguments = [Locations.zaoan, "serve", "--socket", socketPath]
            switch watchdogPID {
            case nil: break
            case "self": arguments = ["/bin/sh", "-c", #"export WATCHDOG_PID=$$; exec "$0" "$@""#] + arguments
            case let pid?: environment["WATCHDOG_PID"] = pid
            }
            process = try SpawnedProcess(arguments, environment: environment, outputPath: directory.file("log"))
        }

        deinit {
            process.signal(SIGKILL)
            _ = process.wait(timeout: 5)
            directory.remove()
        }

        func texts(_ prefix: String) -> [String] { receiver.messages.map(\.text).filter { $0.hasPrefix(prefix) } }
    }

    @Test("READY=1 once serving, STATUS= with counts refreshed when they change (at most 1/s), STOPPING=1 on SIGTERM")
    func readyStatusStopping() throws {
        let service = try NotifiedService()
        let ready = try #require(service.receiver.wait(timeout: 10) { $0 == "READY=1" }, "no READY=1; log: \(service.log)")
        // READY=1 means serving: the very first connection after it must be answered.
        #expect(try ask(service.socketPath, "ping") == "pong\n", "READY=1 came before zaoan could answer")
        let first = try #require(service.receiver.wait(timeout: 3) { $0.hasPrefix("STATUS=") }, "no STATUS=")
        #expect(first.text == "STATUS=serving on \(service.socketPath): 0 connections, 0 watches, 0 live rooms", "\(first.text)")
        #expect(first.time - ready.time < 0.5)

        // A session and a watch: the status follows within about a second.
        let session = try RawClient(path: service.socketPath)
        try session.send("session\n")
        #expect(try session.readLine() == "ok")
        let watcher = try RawClient(path: service.socketPath)
        try watcher.send("watch time HH:mm:ss\n")
        _ = try watcher.readLine()
        let mark = service.receiver.messages.count
        let busy = service.receiver.wait(timeout: 3, from: mark) { $0.contains(": 2 connections, 1 watches") }
        #expect(busy != nil, "no STATUS with 2 connections and 1 watch; got \(service.texts("STATUS="))")
        session.close()
        watcher.close()
        let idleMark = service.receiver.messages.count
        let idle = service.receiver.wait(timeout: 3, from: idleMark) { $0.contains(": 0 connections, 0 watches") }
        #expect(idle != nil, "no STATUS back at 0 connections; got \(service.texts("STATUS="))")

        // 60 one-shot requests in about a second: the status is refreshed, but at most once a second.
        let burstMark = service.receiver.messages.count
        let burstStart = monotonicSeconds()
        for _ in 0..<60 {
            #expect(try ask(service.socketPath, "ping") == "pong\n")
            service.receiver.receive(for: 0.015)
        }
        service.receiver.receive(for: max(0, burstStart + 3 - monotonicSeconds()))
        let statuses = service.receiver.messages[burstMark...].filter { $0.text.hasPrefix("STATUS=") }
        let span = monotonicSeconds() - burstStart
        #expect(!statuses.isEmpty, "no STATUS= while connections came and went")
        #expect(Double(statuses.count) <= span + 1, "\(statuses.count) STATUS= in \(span) s; at most one a second")
        for (earlier, later) in zip(statuses, statuses.dropFirst()) {
            #expect(later.time - earlier.time > 0.8, "two STATUS= \(later.time - earlier.time) s apart")
        }
        #expect(service.texts("WATCHDOG=").isEmpty, "WATCHDOG=1 without WATCHDOG_USEC")

        let stopMark = service.receiver.messages.count
        service.process.signal(SIGTERM)
        #expect(service.receiver.wait(timeout: 5, from: stopMark) { $0 == "STOPPING=1" } != nil, "no STOPPING=1 on SIGTERM")
        #expect(service.process.wait(timeout: 5) == .exited(0), "log: \(service.log)")
        print("notify: \(service.receiver.messages.count) messages; STATUS lines: \(Set(service.texts("STATUS=")).sorted())")
    }

    @Test("WATCHDOG=1 every half WATCHDOG_USEC from the event loop, while serving too",
          arguments: [nil, "self"])
    func watchdog(watchdogPID: String?) throws {
        let service = try NotifiedService(watchdogMicroseconds: 200_000, watchdogPID: watchdogPID)
        try #require(service.receiver.wait(timeout: 10) { $0 == "READY=1" } != nil, "no READY=1; log: \(service.log)")
        let start = monotonicSeconds()
        // Keep the loop busy meanwhile: the pings must still come on time. (A thread of its
        // own reads them, so each is timed when it arrives.)
        service.receiver.startDraining()
        while monotonicSeconds() - start < 1.6 {
            #expect(try ask(service.socketPath, "time yyyy-MM-dd HH:mm:ss").count > 10)
        }
        service.receiver.stopDraining()
        let pings = service.receiver.messages.filter { $0.text == "WATCHDOG=1" && $0.time >= start }
        // Every 100 ms: about 16 in 1.6 s; far fewer means the loop is not pinging on time.
        #expect(pings.count >= 10, "\(pings.count) WATCHDOG=1 in 1.6 s with WATCHDOG_USEC=200000")
        let gaps = zip(pings, pings.dropFirst()).map { $1.time - $0.time }
        #expect((gaps.max() ?? 0) < 0.2, "a gap of \(gaps.max() ?? 0) s between pings: systemd would kill the service")
        service.process.signal(SIGTERM)
        #expect(service.process.wait(timeout: 5) == .exited(0))
        print("watchdog (WATCHDOG_PID \(watchdogPID ?? "unset")): \(pings.count) pings in 1.6 s, longest gap \(String(format: "%.3f", gaps.max() ?? 0)) s")
    }

    @Test("no WATCHDOG=1 when WATCHDOG_PID names another process (the watchdog is not zaoan's)")
    func watchdogForAnotherProcess() throws {
        let service = try NotifiedService(watchdogMicroseconds: 200_000, watchdogPID: "1")
        try #require(service.receiver.wait(timeout: 10) { $0 == "READY=1" } != nil, "no READY=1; log: \(service.log)")
        service.receiver.receive(for: 0.6)
        #expect(service.texts("WATCHDOG=").isEmpty)
        service.process.signal(SIGTERM)
        #expect(service.process.wait(timeout: 5) == .exited(0))
    }
}
