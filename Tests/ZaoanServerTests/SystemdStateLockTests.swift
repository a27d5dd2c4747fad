import Foundation
import Glibc
import Testing

/// One service per state directory under a real user manager (see SystemdManagerTests,
/// whose serialized suite this joins: one manager at a time): a `zaoan serve` started by
/// hand holds the state, so the zaoan.service the socket starts refuses; the socket must not
/// be left failed, and serves again by itself once the hand-started one stops.
extension SystemdManagerTests {
    @Test("the user units beside a hand-started zaoan: ERR busy, exit 75 not restarted, the socket listening, then serving once it stops",
          Sanitizer.skipped("the units' seccomp filter and sandbox refuse system calls the sanitizer runtime makes"))
    func refusesBesideAHandStartedService() throws {
        let manager = try Self.startManager()
        defer { manager.stop() }
        let logPath = manager.directory.file("zaoan.log")
        let socket = try UnitFile(path: SystemdSecurityTests.userDirectory + "/zaoan.socket")
        var service = try UnitFile(path: SystemdSecurityTests.userDirectory + "/zaoan.service")
        #expect(service.value("RestartPreventExitStatus", in: "Service") == "75")
        service.set("ExecStart", "\(Locations.zaoan) serve --exit-idle-time 0.5s", in: "Service")
        service.set("SystemCallErrorNumber", "kill", in: "Service")
        service.set("StandardOutput", "append:\(logPath)", in: "Service")
        service.set("StandardError", "append:\(logPath)", in: "Service")
        try Self.install(["zaoan.socket": socket, "zaoan.service": service], in: manager, start: "zaoan.socket")
        defer { _ = try? manager.systemctl(["stop", "zaoan.socket", "zaoan.service"]) }  // the manager stops anyway
        let socketPath = manager.runtimeDirectory + "/zaoan.sock"

        // By hand, on another socket, on the state the unit uses ($HOME/.local/state/zaoan).
        var configuration = TestService.Configuration()
        configuration.environment = ["HOME": manager.home, "XDG_STATE_HOME": manager.home + "/.local/state"]
        let hand = try TestService.start(configuration)
        #expect(try hand.ask("live add kept +1h Kept room") == "ok\n")

        let refused = try ask(socketPath, "ping", timeout: 20)
        #expect(refused.hasPrefix("ERR busy another zaoan (pid \(hand.pid), serving on \(hand.socketPath))"), "\(refused.debugDescription); log: \(Self.logText(logPath))")
        let stopped = Self.waitFor("ActiveState", of: "zaoan.service", in: manager, timeout: 20) { $0 == "failed" || $0 == "inactive" }
        #expect(stopped.ok, "zaoan.service still \(stopped.value); log: \(Self.logText(logPath))")
        #expect(manager.property("ExecMainStatus", of: "zaoan.service") == "75")
        #expect(manager.property("NRestarts", of: "zaoan.service") == "0", "RestartPreventExitStatus=75 keeps it from restarting")
        #expect(manager.property("ActiveState", of: "zaoan.socket") == "active" && manager.property("SubState", of: "zaoan.socket") == "listening",
                "zaoan.socket: \(manager.property("ActiveState", of: "zaoan.socket"))/\(manager.property("SubState", of: "zaoan.socket")), Result=\(manager.property("Result", of: "zaoan.socket"))")
        print("beside a hand-started zaoan: zaoan.service \(stopped.value), ExecMainStatus=\(manager.property("ExecMainStatus", of: "zaoan.service")), socket \(manager.property("SubState", of: "zaoan.socket"))")

        try hand.stop()
        let served = try ask(socketPath, "live list", timeout: 20)
        #expect(served.hasPrefix("kept\t"), "the socket serves again, with the hand-started one's rooms: \(served.debugDescription); log: \(Self.logText(logPath))")
        #expect(manager.property("ActiveState", of: "zaoan.service") == "active")
    }
}
