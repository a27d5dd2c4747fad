import Foundation
import Testing

/// `systemd-analyze verify` exits 0 on typos such as `ProtectSytem=` and only prints a line,
/// so any output at all is a failure.
@Suite("systemd user units")
struct SystemdUnitTests {
    static let unitDirectory = Locations.packageRoot + "/packaging/systemd/user"
    static let socketUnit = unitDirectory + "/zaoan.socket"
    static let serviceUnit = unitDirectory + "/zaoan.service"
    static let unitsPresent = FileManager.default.fileExists(atPath: socketUnit)
        && FileManager.default.fileExists(atPath: serviceUnit)

    /// `Key=value` lines of a unit file (later ones last).
    private func settings(_ path: String) throws -> [(key: String, value: String)] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { line in
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.hasPrefix("#"), !text.hasPrefix(";"), !text.hasPrefix("["), let equals = text.firstIndex(of: "=") else { return nil }
            return (String(text[..<equals]).trimmingCharacters(in: .whitespaces),
                    String(text[text.index(after: equals)...]).trimmingCharacters(in: .whitespaces))
        }
    }

    @Test("systemd-analyze --user verify prints nothing for zaoan.socket and zaoan.service",
          .enabled(if: unitsPresent, "packaging/systemd/user/zaoan.socket and zaoan.service are not there yet"))
    func verify() throws {
        let analyze = try #require(Locations.tool("systemd-analyze"), "systemd-analyze not found (Debian package systemd)")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // A user manager of our own: HOME and XDG_RUNTIME_DIR in the temporary directory
        // (CI runs as root with no XDG_RUNTIME_DIR, and verify --user needs one).
        let environment = try TestService.isolatedEnvironment(in: directory)

        // verify checks that ExecStart= and ExecReload= are executable. A unit that runs
        // %h/... (the user's own install) gets a stand-in there; an absolute path must exist
        // for real.
        for (key, value) in try settings(Self.serviceUnit) where key == "ExecStart" || key == "ExecReload" {
            var command = String(value.split(separator: " ").first ?? "")
            while let first = command.first, "-@:+!".contains(first) { command.removeFirst() }
            if command.hasPrefix("%h/") {
                let stand = environment["HOME"]! + "/" + command.dropFirst(3)
                try FileManager.default.createDirectory(atPath: (stand as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data("#!/bin/sh\nexit 0\n".utf8).write(to: URL(fileURLWithPath: stand))
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: stand)
            }
        }

        let result = try Tool.run(analyze, ["--user", "verify", Self.socketUnit, Self.serviceUnit],
                                  environment: environment, timeout: 60, scratch: directory)
        #expect(!result.timedOut && result.status == 0, "\(result)")
        let lines = (result.output + result.errorOutput).split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(lines.isEmpty, "systemd-analyze verify printed:\n\(lines.joined(separator: "\n"))")
    }

    @Test("the socket unit is a user socket at %t/zaoan.sock, mode 0600, outside any RuntimeDirectory=",
          .enabled(if: unitsPresent, "packaging/systemd/user/zaoan.socket and zaoan.service are not there yet"))
    func unitSettings() throws {
        let socket = try settings(Self.socketUnit)
        let service = try settings(Self.serviceUnit)
        #expect(socket.contains(where: { $0 == ("ListenStream", "%t/zaoan.sock") }), "\(socket)")
        #expect(socket.contains(where: { $0 == ("SocketMode", "0600") }), "\(socket)")
        #expect(!socket.contains(where: { $0.key == "Accept" && ["yes", "true", "1", "on"].contains($0.value.lowercased()) }),
                "one long-lived process serves every connection: Accept=no")
        #expect(service.contains(where: { $0 == ("Type", "notify") }), "\(service)")
        for (key, value) in service where key == "RuntimeDirectory" {
            for name in value.split(separator: " ") {
                #expect(!"%t/zaoan.sock".hasPrefix("%t/\(name)/"),
                        "the socket must not live inside RuntimeDirectory=\(name): systemd removes it when the service stops")
            }
        }
    }

    @Test("ExecReload= of both units waits for the service's answer: the zaoan beside ExecStart='s zaoan-server asks `reload` on the socket unit's ListenStream=",
          arguments: ["user", "system"])
    func reloadWaitsForTheAnswer(instance: String) throws {
        let directory = Locations.packageRoot + "/packaging/systemd/" + instance
        let socket = try UnitFile(path: directory + "/zaoan.socket")
        let service = try UnitFile(path: directory + "/zaoan.service")
        let listen = try #require(socket.value("ListenStream", in: "Socket"))
        let server = try #require(service.value("ExecStart", in: "Service")?.split(separator: " ").first.map(String.init))
        #expect(server.hasSuffix("/zaoan-server"), "ExecStart= runs the service itself: \(server)")
        let client = server.dropLast("-server".count)
        // No kill -HUP: it returns at once and always succeeds, whatever the service makes of the file.
        #expect(service.values("ExecReload", in: "Service") == ["\(client) ask --socket \(listen) --timeout 10s reload"])
    }
}
