import Foundation
import Glibc
import Testing

/// The system units (packaging/systemd/system) and the hardening of both services.
@Suite("systemd system units and hardening")
struct SystemdSecurityTests {
    static let systemDirectory = Locations.packageRoot + "/packaging/systemd/system"
    static let userDirectory = Locations.packageRoot + "/packaging/systemd/user"
    static let analyze = Locations.tool("systemd-analyze")

    /// The exposure `systemd-analyze security --offline=true` gives a unit file, and its output.
    static func exposure(of unit: String, threshold: Int? = nil, user: Bool = false) throws -> (level: Double?, rating: String, result: ToolResult) {
        let analyze = try #require(analyze, "systemd-analyze not found (Debian package systemd)")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var arguments = ["security", "--offline=true", "--no-pager", "--man=no"]
        if let threshold { arguments.append("--threshold=\(threshold)") }
        arguments.append(unit)
        let result = try Tool.run(analyze, arguments, environment: Tool.baseEnvironment(home: try directory.makeDirectory("home")),
                                  timeout: 60, scratch: directory)
        // "→ Overall exposure level for zaoan.service: 0.4 SAFE 😀"
        // (the face at the end is ASCII, ":-}", outside UTF-8 locales, so split at the first ": ")
        guard let line = result.output.split(separator: "\n").first(where: { $0.contains("Overall exposure level") }),
              let colon = line.range(of: ": ") else { return (nil, "", result) }
        let words = line[colon.upperBound...].split(separator: " ")
        return (words.first.flatMap { Double($0) }, words.dropFirst().first.map(String.init) ?? "", result)
    }

    @Test("systemd-analyze security --offline=true rates the system zaoan.service at most 1.0",
          .enabled(if: analyze != nil, "systemd-analyze not found (Debian package systemd)"))
    func systemExposure() throws {
        let (level, rating, result) = try Self.exposure(of: Self.systemDirectory + "/zaoan.service", threshold: 10)
        let exposure = try #require(level, "no exposure level in the output: \(result)")
        let weak = result.output.split(separator: "\n").filter { $0.hasPrefix("✗") }.map { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "" }
        print("systemd-analyze security: system zaoan.service exposure \(exposure) \(rating) (left open: \(weak.joined(separator: " ")))")
        #expect(exposure <= 1.0, "exposure \(exposure): \(result.output)")
        // --threshold=10 makes the command itself fail above 1.0.
        #expect(result.status == 0, "\(result)")
        // What is left open must be what the service needs, nothing else.
        let allowed: Set<Substring> = ["RootDirectory=/RootImage=", "RestrictAddressFamilies=~AF_UNIX", "PrivateUsers=", "DeviceAllow="]
        for name in weak { #expect(allowed.contains(name), "\(name) is not hardened") }
    }

    @Test("the user zaoan.service: its exposure, for the record (namespaces need PrivateUsers= there)",
          .enabled(if: analyze != nil, "systemd-analyze not found (Debian package systemd)"))
    func userExposure() throws {
        let (level, rating, result) = try Self.exposure(of: Self.userDirectory + "/zaoan.service")
        let exposure = try #require(level, "no exposure level in the output: \(result)")
        print("systemd-analyze security: user zaoan.service exposure \(exposure) \(rating) (rated as a system unit; the namespace options do not apply to user units)")
        // The seccomp/prctl hardening is what a user unit can have; it must stay in place.
        #expect(exposure <= 6.5, "\(result.output)")
    }

    @Test("the system units: /run/zaoan/zaoan.sock 0666 outside RuntimeDirectory=, a dynamic user, notify, watchdog, idle exit")
    func systemUnitSettings() throws {
        let socket = try UnitFile(path: Self.systemDirectory + "/zaoan.socket")
        let service = try UnitFile(path: Self.systemDirectory + "/zaoan.service")
        #expect(socket.values("ListenStream", in: "Socket") == ["/run/zaoan/zaoan.sock"])
        #expect(socket.value("SocketMode", in: "Socket") == "0666")
        #expect(socket.value("DirectoryMode", in: "Socket") == "0755")
        #expect(!["yes", "true", "1", "on"].contains(socket.value("Accept", in: "Socket")?.lowercased() ?? "no"))
        #expect(socket.value("WantedBy", in: "Install") == "sockets.target")

        let expected: [String: String] = [
            "Type": "notify", "Restart": "on-failure", "DynamicUser": "yes",
            "StateDirectory": "zaoan", "ConfigurationDirectory": "zaoan", "WatchdogSec": "30s",
        ]
        for (key, value) in expected { #expect(service.value(key, in: "Service") == value, "\(key)=") }
        let execStart = try #require(service.value("ExecStart", in: "Service"))
        #expect(execStart.hasPrefix("/usr/local/bin/zaoan-server serve --exit-idle-time "), "\(execStart)")
        #expect(service.value("SyslogIdentifier", in: "Service") == "zaoan", "its journal lines say zaoan")
        #expect(service.value("RuntimeDirectory", in: "Service") == nil,
                "the socket lives in /run/zaoan; a RuntimeDirectory= would be removed whenever the service stops")
        #expect(["no", "false", "0", nil].contains(service.value("PrivateUsers", in: "Service")?.lowercased()),
                "PrivateUsers= makes every other uid `nobody` in SO_PEERCRED: root and admin_group would lose their rights")
    }

    /// Hardening the issue names for the system unit, with the value each must have.
    static let systemHardening: [(String, String)] = [
        ("ProtectSystem", "strict"), ("ProtectHome", "yes"), ("PrivateNetwork", "yes"),
        ("RestrictAddressFamilies", "AF_UNIX"), ("SystemCallArchitectures", "native"),
        ("MemoryDenyWriteExecute", "yes"), ("NoNewPrivileges", "yes"), ("CapabilityBoundingSet", ""),
        ("PrivateDevices", "yes"), ("ProtectKernelTunables", "yes"), ("ProtectKernelModules", "yes"),
        ("ProtectKernelLogs", "yes"), ("ProtectControlGroups", "yes"), ("ProtectClock", "yes"),
        ("ProtectHostname", "yes"), ("ProtectProc", "invisible"), ("ProcSubset", "pid"),
        ("RestrictNamespaces", "yes"), ("RestrictRealtime", "yes"), ("RestrictSUIDSGID", "yes"),
        ("LockPersonality", "yes"), ("UMask", "0077"), ("PrivateTmp", "yes"), ("PrivateIPC", "yes"),
        ("RemoveIPC", "yes"), ("IPAddressDeny", "any"), ("DevicePolicy", "closed"), ("KeyringMode", "private"),
    ]

    /// What applies in a user instance without PrivateUsers=: seccomp and prctl.
    static let userHardening: [(String, String)] = [
        ("NoNewPrivileges", "yes"), ("LockPersonality", "yes"), ("MemoryDenyWriteExecute", "yes"),
        ("RestrictAddressFamilies", "AF_UNIX"), ("RestrictNamespaces", "yes"), ("RestrictRealtime", "yes"),
        ("RestrictSUIDSGID", "yes"), ("SystemCallArchitectures", "native"), ("UMask", "0077"),
    ]

    @Test("the system service carries every hardening directive asked for",
          arguments: systemHardening.map { "\($0.0)=\($0.1)" })
    func hardeningDirective(_ assignment: String) throws {
        let service = try UnitFile(path: Self.systemDirectory + "/zaoan.service")
        let (key, value) = (String(assignment.prefix(while: { $0 != "=" })), String(assignment.drop(while: { $0 != "=" }).dropFirst()))
        #expect(service.value(key, in: "Service") == value, "want \(assignment), have \(service.values(key, in: "Service"))")
    }

    @Test("both services filter system calls to @system-service minus @privileged and @resources")
    func systemCallFilter() throws {
        for path in [Self.systemDirectory + "/zaoan.service", Self.userDirectory + "/zaoan.service"] {
            let service = try UnitFile(path: path)
            let filters = service.values("SystemCallFilter", in: "Service")
            #expect(filters.first == "@system-service", "\(path): \(filters)")
            let denied = filters.filter { $0.hasPrefix("~") }.flatMap { $0.dropFirst().split(separator: " ").map(String.init) }
            #expect(denied.contains("@privileged") && denied.contains("@resources"), "\(path): \(filters)")
        }
    }

    @Test("the user service: watchdog, idle exit and the hardening a user instance can apply, no namespace options")
    func userUnitSettings() throws {
        let service = try UnitFile(path: Self.userDirectory + "/zaoan.service")
        #expect(service.value("WatchdogSec", in: "Service") == "30s")
        #expect(service.value("ExecStart", in: "Service")?.hasPrefix("%h/.local/bin/zaoan-server serve --exit-idle-time ") == true)
        #expect(service.value("SyslogIdentifier", in: "Service") == "zaoan", "its journal lines say zaoan")
        for (key, value) in Self.userHardening {
            #expect(service.value(key, in: "Service") == value, "want \(key)=\(value)")
        }
        // Without PrivateUsers=yes a user manager cannot set up these (the service fails to
        // start with 226/NAMESPACE or 218/CAPABILITIES when the manager is not root).
        for key in ["ProtectSystem", "ProtectHome", "PrivateTmp", "PrivateDevices", "PrivateNetwork", "PrivateIPC",
                    "ProtectKernelTunables", "ProtectKernelModules", "ProtectKernelLogs", "ProtectControlGroups",
                    "ProtectClock", "ProtectHostname", "ProtectProc", "ProcSubset", "DynamicUser", "CapabilityBoundingSet",
                    "PrivateUsers"] {
            #expect(service.value(key, in: "Service") == nil, "\(key)= does not belong in the user unit")
        }
    }

    @Test("packaging/verify-units.sh prints nothing for the user and the system units, and catches a typo in either",
          .enabled(if: analyze != nil, "systemd-analyze not found (Debian package systemd)"))
    func verifyUnits() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = Tool.baseEnvironment(home: try directory.makeDirectory("home"))
        let script = Locations.packageRoot + "/packaging/verify-units.sh"
        let clean = try Tool.run(script, [], environment: environment, timeout: 120, scratch: directory)
        #expect(clean.status == 0 && clean.output.isEmpty && clean.errorOutput.isEmpty, "\(clean)")

        // The same script on a copy whose units each carry a typo must complain about both.
        for kind in ["user", "system"] {
            let copy = try directory.makeDirectory("copy-\(kind)")
            // The whole tree the script checks: the units and the integrations' units.
            let copied = try Tool.run("/bin/cp", ["-R", Locations.packageRoot + "/packaging/systemd",
                                                  Locations.packageRoot + "/packaging/integrations", script, copy],
                                      environment: environment, scratch: directory)
            try #require(copied.status == 0, "\(copied)")
            let service = copy + "/systemd/\(kind)/zaoan.service"
            var text = try String(contentsOfFile: service, encoding: .utf8)
            text = text.replacingOccurrences(of: "[Service]\n", with: "[Service]\nProtectSytem=strict\n")
            try Data(text.utf8).write(to: URL(fileURLWithPath: service))
            let broken = try Tool.run(copy + "/verify-units.sh", [], environment: environment, timeout: 120, scratch: directory)
            #expect(broken.status != 0 && broken.errorOutput.contains("ProtectSytem"), "\(kind): \(broken)")
        }
    }
}
