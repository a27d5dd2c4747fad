import Foundation
import Glibc
import Testing
import ZaoanServer

/// Issue 33, point 1, walked as a user meets it: `systemctl --user reload zaoan.service`
/// after a bad edit of the config. Before, ExecReload= was `kill -HUP $MAINPID`: it returned
/// at once, systemctl exited 0 and printed nothing, and only `zaoan ask reload` said why the
/// file was refused. Now ExecReload= runs `zaoan ask ... reload`, which waits for the answer:
/// systemctl exits non-zero, the unit's output (the journal, here a file) has the ERR line
/// with file:line:col and "did you mean", `systemctl status` says so, and the settings in
/// force stay; a fixed file reloads with exit 0.
///
/// The units are the installed ones: packaging/install.sh --user --binary (the binary under
/// test) into the manager's HOME, as a user would run it, under a real user manager
/// (skipped with the reason printed where none can start). One drop-in only where this
/// machine needs it: no journald runs here, so the service's stdout and stderr (ExecReload='s
/// too) go to a file.
// Nested in SystemdManagerTests, whose serialized suite runs one user manager at a time.
extension SystemdManagerTests {
    @Suite("systemctl reload under a real user manager", .serialized)
    struct SystemdReloadTests {
        static func city(_ greeting: String) -> String {
            String(greeting.split(separator: "·").last ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        }

        @Test("a refused config fails `systemctl --user reload` with file:line:col in the unit's log and status; the settings stay; a fixed file reloads",
              Sanitizer.skipped("the units' seccomp filter refuses system calls the sanitizer runtime makes"))
        func refusedReloadFails() throws {
            let manager = try SystemdManagerTests.startManager()
            defer { manager.stop() }
            let logPath = manager.directory.file("zaoan.log")

            // install.sh --user, as the README says, into the manager's HOME and XDG_CONFIG_HOME;
            // it runs `systemctl --user daemon-reload` against this manager itself.
            var environment = manager.environment
            environment["XDG_CONFIG_HOME"] = manager.configHome
            let installed = try Tool.run(SystemdInstallTests.script, ["--user", "--binary", Locations.zaoan],
                                         environment: environment, timeout: 120, scratch: manager.directory)
            try #require(installed.status == 0, "\(installed)")
            let unit = try UnitFile(path: manager.unitDirectory + "/zaoan.service")
            #expect(unit.value("ExecReload", in: "Service") == "%h/.local/bin/zaoan ask --socket %t/zaoan.sock --timeout 10s reload")
            let dropIn = manager.unitDirectory + "/zaoan.service.d"
            try FileManager.default.createDirectory(atPath: dropIn, withIntermediateDirectories: true)
            try Data("[Service]\nStandardOutput=append:\(logPath)\nStandardError=append:\(logPath)\n".utf8)
                .write(to: URL(fileURLWithPath: dropIn + "/log-to-file.conf"))

            // The config where the service looks for it: the manager's environment decides.
            var managerEnvironment: [String: String] = [:]
            for line in try manager.systemctl(["show-environment"]).output.split(separator: "\n") {
                guard let equals = line.firstIndex(of: "=") else { continue }
                managerEnvironment[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
            let configPath = ConfigSource.defaultPath(environment: managerEnvironment)
            try FileManager.default.createDirectory(atPath: (configPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            func writeConfig(_ text: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: configPath)) }
            try writeConfig(#"{"language": "en", "city": "Tokyo"}"#)

            #expect(try manager.systemctl(["daemon-reload"]).status == 0)
            let started = try manager.systemctl(["start", "zaoan.socket"])
            try #require(started.status == 0, "\(started)")
            defer { _ = try? manager.systemctl(["stop", "zaoan.socket", "zaoan.service"]) }
            let socketPath = manager.runtimeDirectory + "/zaoan.sock"

            // Reloading a service that is not running fails in systemd itself.
            let inactive = try manager.systemctl(["reload", "zaoan.service"])
            #expect(inactive.status != 0, "\(inactive)")

            // The first request starts the service.
            let greeting = try ask(socketPath, "greeting", timeout: 10)
            #expect(Self.city(greeting) == "Tokyo" && greeting.hasPrefix("Good "), "\(greeting.debugDescription); log: \(SystemdManagerTests.logText(logPath))")
            try #require(SystemdManagerTests.waitFor("ActiveState", of: "zaoan.service", in: manager) { $0 == "active" }.ok)
            let servingPID = manager.property("MainPID", of: "zaoan.service")

            // A typo on line 3: the reload fails, and says where.
            try writeConfig("""
                {
                  "city": "Paris",
                  "langauge": "zh"
                }
                """)
            let problem = "\(configPath):3:3: config key 'langauge': unknown key; did you mean 'language'?"
            let refused = try manager.systemctl(["reload", "zaoan.service"])
            #expect(refused.status != 0, "systemctl --user reload exited 0 after a refused config: \(refused)")
            #expect(refused.errorOutput.contains("Job for zaoan.service failed"), "\(refused)")
            let log = SystemdManagerTests.logText(logPath)
            // ExecReload='s client: the same ERR line `zaoan ask reload` prints.
            #expect(log.contains("ERR bad-config \(problem); the previous settings stay in force"), "log: \(log)")
            // The service's own error line, as the journal files it (<3>: error).
            #expect(log.contains("<3>zaoan: reload rejected, keeping the previous settings: \(problem)"), "log: \(log)")
            let status = try manager.systemctl(["status", "zaoan.service"])
            #expect(status.output.contains("reload refused, the previous settings stay (config.json:3:3: config key 'langauge': unknown key; did you mean 'language'?)"),
                    "systemctl --user status:\n\(status.output)")
            #expect(status.output.contains("ExecReload=") && status.output.contains("status=1/FAILURE"), "systemctl --user status:\n\(status.output)")
            #expect(manager.property("ActiveState", of: "zaoan.service") == "active")
            #expect(Self.city(try ask(socketPath, "greeting", timeout: 10)) == "Tokyo", "the settings in force stay")

            // Fixed: the reload succeeds, and the new settings apply in the same process.
            try writeConfig(#"{"language": "en", "city": "Paris"}"#)
            let reloaded = try manager.systemctl(["reload", "zaoan.service"])
            #expect(reloaded.status == 0, "\(reloaded); log: \(SystemdManagerTests.logText(logPath))")
            #expect(Self.city(try ask(socketPath, "greeting", timeout: 10)) == "Paris")
            #expect(!manager.property("StatusText", of: "zaoan.service").contains("reload refused"))
            #expect(manager.property("MainPID", of: "zaoan.service") == servingPID, "reloaded, not restarted")

            // SIGHUP from anyone still reloads: systemd sees RELOADING=1 and READY=1 and the
            // service is active again.
            try writeConfig(#"{"language": "en", "city": "Berlin"}"#)
            kill(pid_t(servingPID) ?? 0, SIGHUP)
            #expect(eventually(timeout: 5) { (try? Self.city(ask(socketPath, "greeting", timeout: 5))) == "Berlin" },
                    "log: \(SystemdManagerTests.logText(logPath))")
            #expect(SystemdManagerTests.waitFor("ActiveState", of: "zaoan.service", in: manager) { $0 == "active" }.ok)
            print("systemctl --user status after a refused reload:\n\(status.output)\nsystemctl --user reload: \(refused.errorOutput)")
        }
    }
}

typealias SystemdReloadTests = SystemdManagerTests.SystemdReloadTests
