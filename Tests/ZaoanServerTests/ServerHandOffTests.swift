import Foundation
import Glibc
import Testing
@testable import zaoan

/// Where `zaoan serve` and `zaoan check-config` look for `zaoan-server`: beside `zaoan`
/// (install.sh, scripts/run, a build folder), then in `<prefix>/libexec/zaoan/` for
/// `<prefix>/bin/zaoan` (the Debian package: /usr/bin/zaoan, /usr/libexec/zaoan/zaoan-server).
@Suite("zaoan finds zaoan-server beside it or in its prefix's libexec/zaoan")
struct ServerHandOffTests {
    @Test("the places, in order, for a zaoan anywhere", arguments: [
        ("/usr/bin/zaoan", ["/usr/bin/zaoan-server", "/usr/libexec/zaoan/zaoan-server"]),
        ("/home/a/.local/bin/zaoan", ["/home/a/.local/bin/zaoan-server", "/home/a/.local/libexec/zaoan/zaoan-server"]),
        ("/usr/bin/zaoan (deleted)", ["/usr/bin/zaoan-server", "/usr/libexec/zaoan/zaoan-server"]),
        ("/bin/zaoan", ["/bin/zaoan-server", "/libexec/zaoan/zaoan-server"]),
        ("/zaoan", ["/zaoan-server", "/libexec/zaoan/zaoan-server"]),
    ])
    func candidates(executable: String, expected: [String]) {
        #expect(ServerHandOff.candidates(forExecutable: executable) == expected)
    }

    /// `D/usr/bin/zaoan` and `D/usr/libexec/zaoan/zaoan-server`, copies of the built ones.
    private static func debianLayout(in directory: TemporaryDirectory) throws -> (client: String, server: String) {
        let bin = try directory.makeDirectory("usr/bin")
        let libexec = try directory.makeDirectory("usr/libexec/zaoan")
        try FileManager.default.copyItem(atPath: Locations.zaoan, toPath: bin + "/zaoan")
        try FileManager.default.copyItem(atPath: Locations.zaoanServer, toPath: libexec + "/zaoan-server")
        return (bin + "/zaoan", libexec + "/zaoan-server")
    }

    @Test("check-config and serve run the zaoan-server in ../libexec/zaoan: the Debian package's layout")
    func debianLayout() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = try TestService.isolatedEnvironment(in: directory)
        let (client, server) = try Self.debianLayout(in: directory)
        try directory.write("c.json", #"{"timezone": "UTC"}"#)
        let checked = try Tool.run(client, ["check-config", directory.file("c.json")], environment: environment, timeout: 20, scratch: directory)
        #expect(checked.status == 0 && checked.output.contains(": ok (city"), "\(checked)")

        let socket = directory.file("s.sock")
        let serve = try RunningZaoan(["serve", "--socket", socket], environment: environment, scratch: directory, binary: client)
        defer { _ = serve.terminate() }
        let answered = eventually(timeout: 20) { (try? ask(socket, "ping", timeout: 2)) == "pong\n" || !serve.process.isRunning }
        #expect(answered && serve.process.isRunning, "stderr: \(serve.errorText)")
        let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(serve.process.processIdentifier)/exe")
        #expect(executable == server)
    }

    @Test("zaoan-server beside zaoan comes first; one there that cannot run is reported, not passed over")
    func besideComesFirst() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = try TestService.isolatedEnvironment(in: directory)
        let (client, _) = try Self.debianLayout(in: directory)
        let beside = directory.file("usr/bin/zaoan-server")
        try directory.write("usr/bin/zaoan-server", "#!/bin/sh\necho \"beside: $*\"\n")
        chmod(beside, 0o755)
        let run = try Tool.run(client, ["check-config"], environment: environment, timeout: 20, scratch: directory)
        #expect(run.status == 0 && run.output == "beside: check-config\n", "\(run)")

        chmod(beside, 0o644)
        let refused = try Tool.run(client, ["check-config"], environment: environment, timeout: 20, scratch: directory)
        #expect(refused.status == 69 && refused.errorOutput.contains("zaoan check-config needs \(beside): Permission denied."), "\(refused)")
        #expect(!refused.errorOutput.contains("libexec/zaoan/zaoan-server:"), "\(refused)")
    }

    @Test("without zaoan-server in either place: exit 69 naming both")
    func neither() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = try TestService.isolatedEnvironment(in: directory)
        let bin = try directory.makeDirectory("usr/bin")
        try FileManager.default.copyItem(atPath: Locations.zaoan, toPath: bin + "/zaoan")
        let result = try Tool.run(bin + "/zaoan", ["serve", "--socket", directory.file("s.sock")], environment: environment, timeout: 20, scratch: directory)
        #expect(result.status == 69, "\(result)")
        #expect(result.errorOutput.contains("zaoan serve needs \(bin)/zaoan-server: No such file or directory, nor at \(directory.path)/usr/libexec/zaoan/zaoan-server: No such file or directory."), "\(result)")
    }
}
