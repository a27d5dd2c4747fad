import Foundation
import Glibc
import Testing

/// The installed path of the notifier, walked as the README says: `packaging/install.sh
/// --user` into a HOME of a real systemd user manager of the test's own (`UserManager`),
/// the session's DISPLAY and bus handed to the manager as a desktop session does, then the
/// printed `systemctl --user enable --now` commands. The user manager's PATH has no
/// ~/.local/bin; the notifier must still run the zaoan install.sh put there, reach dunst,
/// and, with that zaoan gone, fail (exit 78, not restarted) with one line saying what to do.
///
/// It installs the release build scripts/test makes (`Locations.releaseZaoan`; the debug
/// build when there is none), so nothing is built here. Skipped, with the reason printed,
/// where no user manager can be started.
// Nested in SystemdManagerTests, whose serialized suite runs one user manager at a time:
// two `systemd --user` of the same uid in one cgroup manage the same unit cgroups, so one
// stopping zaoan.service waits for (and kills) the other's.
extension SystemdManagerTests {
    @Suite("zaoan-notify as install.sh installs it, under a real user manager", .serialized)
    struct NotifyInstalledTests {
        /// The processes below `pid` (children, their children, ...), from /proc.
        static func descendants(of pid: pid_t) -> [pid_t] {
            var parents: [pid_t: pid_t] = [:]
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
                guard let child = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                      let close = stat.lastIndex(of: ")") else { continue }
                // pid (comm) state ppid ...; comm may hold spaces and parentheses.
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                if fields.count > 1, let parent = pid_t(fields[1]) { parents[child] = parent }
            }
            var found: [pid_t] = []
            var frontier: Set<pid_t> = [pid]
            while !frontier.isEmpty {
                let next = parents.filter { frontier.contains($0.value) }.map(\.key)
                found += next
                frontier = Set(next)
            }
            return found
        }

        /// A process's argv.
        static func arguments(of pid: pid_t) -> [String] {
            let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
            return data.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
        }

        @Test("install.sh --user, enable --now: the notifier runs the installed zaoan and notifies in the configured language; without zaoan it fails loudly",
              Sanitizer.skipped("the installed zaoan.service's seccomp filter refuses system calls the sanitizer runtime makes"))
        func installedNotifier() throws {
            if let missing = NotificationDesktop.missingTool { throw TestFailure(missing) }
            let manager = try SystemdManagerTests.startManager()
            defer { manager.stop() }
            let binary = Locations.releaseZaoan ?? Locations.zaoan
            if Locations.releaseZaoan == nil {
                print("installed notifier: no release build (scripts/test makes .build/release/zaoan); installing \(binary)")
            }
            let home = manager.home
            let logPath = manager.directory.file("units.log")

            // The user's config: Chinese, UTC, soon two seconds ahead.
            try manager.directory.write("config/zaoan/config.json", #"{"language": "zh", "timezone": "UTC", "soon_threshold": 2}"#)
            // Drop-ins (beside the installed units, which stay as installed) send the units'
            // output to a file: no journald runs here.
            for unit in ["zaoan.service", "zaoan-notify.service"] {
                try manager.directory.write("config/systemd/user/\(unit).d/log.conf",
                                            "[Service]\nStandardOutput=append:\(logPath)\nStandardError=append:\(logPath)\n")
            }

            var environment = manager.environment
            environment["XDG_CONFIG_HOME"] = manager.configHome
            let installed = try Tool.run(SystemdInstallTests.script, ["--user", "--binary", binary], environment: environment,
                                         timeout: 120, scratch: manager.directory)
            try #require(installed.status == 0, "\(installed)")
            let notifierUnit = manager.unitDirectory + "/zaoan-notify.service"
            try #require(FileManager.default.fileExists(atPath: notifierUnit), "install.sh did not install the notifier's unit: \(installed.output)")
            #expect(FileManager.default.isExecutableFile(atPath: home + "/.local/bin/zaoan-notify"))
            #expect(FileManager.default.fileExists(atPath: manager.unitDirectory + "/vdirsyncer-sync.timer"))

            // The desktop session: dunst on the session bus at $XDG_RUNTIME_DIR/bus, and the
            // manager told about it (what `dbus-update-activation-environment --systemd` does).
            let desktop = try NotificationDesktop(in: manager.directory, busPath: manager.runtimeDirectory + "/bus",
                                                  environment: manager.environment, markup: "full")
            defer { desktop.stop() }
            let session = try manager.systemctl(["set-environment", "DISPLAY=:\(desktop.display)", "DBUS_SESSION_BUS_ADDRESS=\(desktop.busAddress)"])
            try #require(session.status == 0, "\(session)")

            // The commands install.sh printed.
            for unit in ["zaoan.socket", "zaoan-notify.service"] {
                let command = "systemctl --user enable --now \(unit)"
                #expect(installed.output.contains(command), "install.sh does not print `\(command)`: \(installed.output)")
                let enabled = try manager.systemctl(["enable", "--now", unit])
                try #require(enabled.status == 0, "\(command): \(enabled)")
            }
            defer { _ = try? manager.systemctl(["stop", "zaoan-notify.service", "zaoan.socket", "zaoan.service"]) }
            let socketPath = manager.runtimeDirectory + "/zaoan.sock"
            // Its `zaoan watch events` starts the service and subscribes.
            let subscribed = eventually(timeout: 30, interval: 0.1) {
                manager.property("ActiveState", of: "zaoan-notify.service") == "active"
                    && ((try? ask(socketPath, "stats")) ?? "").contains("connections_open: 2")
            }
            try #require(subscribed, "the notifier is \(manager.property("ActiveState", of: "zaoan-notify.service")) (\(manager.property("Result", of: "zaoan-notify.service"))), not subscribed; log: \(SystemdManagerTests.logText(logPath))")

            let room = NotifyIntegrationTests.Room()
            let added = try ask(socketPath, "live add news \(NotifyIntegrationTests.Room.iso(room.start)) 早间新闻 end=\(NotifyIntegrationTests.Room.iso(room.end))")
            #expect(added == "ok\n", "\(added)")
            let received = desktop.waitFor(3, timeout: 20)
            let clock = NotifyIntegrationTests.Room.clock
            #expect(received.map(\.summary) == ["早间新闻", "早间新闻", "早间新闻"], "\(received); log: \(SystemdManagerTests.logText(logPath))")
            #expect(received.map(\.body) == ["将于 \(clock(room.start)) 开播", "正在直播 · \(clock(room.start)) 开播", "已于 \(clock(room.end)) 结束"],
                    "\(received)")
            #expect(manager.property("ActiveState", of: "zaoan-notify.service") == "active")

            // Installed by hand from the shipped unit (no ZAOAN=), it runs the zaoan beside it.
            let handInstall = "config/systemd/user/zaoan-notify.service.d/no-zaoan.conf"
            try manager.directory.write(handInstall, "[Service]\nEnvironment=ZAOAN=\n")
            #expect(try manager.systemctl(["daemon-reload"]).status == 0)
            let restarted = try manager.systemctl(["restart", "zaoan-notify.service"])
            #expect(restarted.status == 0, "\(restarted)")
            // Its `zaoan watch events` runs, below the new main process.
            let beside = eventually(timeout: 20, interval: 0.1) {
                let main = pid_t(manager.property("MainPID", of: "zaoan-notify.service")) ?? 0
                return main > 0 && Self.descendants(of: main).contains { Self.arguments(of: $0) == [home + "/.local/bin/zaoan", "watch", "events"] }
            }
            #expect(beside, "without ZAOAN= the notifier is \(manager.property("ActiveState", of: "zaoan-notify.service")) and runs no zaoan watch; log: \(SystemdManagerTests.logText(logPath))")
            try FileManager.default.removeItem(atPath: manager.directory.file(handInstall))
            #expect(try manager.systemctl(["daemon-reload"]).status == 0)

            // Without the zaoan it was installed with: exit 78 with one line, and no restarts.
            let stopped = try manager.systemctl(["stop", "zaoan-notify.service"])
            #expect(stopped.status == 0, "\(stopped)")
            try FileManager.default.removeItem(atPath: home + "/.local/bin/zaoan")
            let before = SystemdManagerTests.logText(logPath)
            _ = try manager.systemctl(["start", "zaoan-notify.service"])
            let failed = SystemdManagerTests.waitFor("ActiveState", of: "zaoan-notify.service", in: manager, timeout: 10) { $0 == "failed" }
            #expect(failed.ok, "the notifier is \(failed.value) (\(manager.property("SubState", of: "zaoan-notify.service"))) without zaoan; log: \(SystemdManagerTests.logText(logPath))")
            #expect(manager.property("ExecMainStatus", of: "zaoan-notify.service") == "78")
            let said = SystemdManagerTests.logText(logPath).dropFirst(before.count).split(separator: "\n").filter { $0.hasPrefix("zaoan-notify:") }
            #expect(said == ["zaoan-notify: cannot run zaoan (\(home)/.local/bin/zaoan: not found); reinstall it with packaging/install.sh, or set ZAOAN to the client's path (systemctl --user edit zaoan-notify.service: [Service] Environment=ZAOAN=/path/to/zaoan)"],
                    "\(said)")
            // `failed`, not `activating (auto-restart)`: RestartPreventExitStatus=78 holds it.
            #expect(manager.property("NRestarts", of: "zaoan-notify.service") == "0")
        }
    }
}

typealias NotifyInstalledTests = SystemdManagerTests.NotifyInstalledTests
