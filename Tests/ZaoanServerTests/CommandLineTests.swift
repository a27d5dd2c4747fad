import Foundation
import Testing

@Suite("The zaoan command line")
struct CommandLineTests {
    @Test("zaoan ask prints the answer: exit 0, or 1 on an ERR answer")
    func ask() throws {
        let service = try TestService.start(arguments: ["--language", "en"])
        let expected = try service.ask("greeting")

        let greeting = try service.zaoan(["ask", "--socket", service.socketPath, "greeting"])
        #expect(greeting.status == 0 && greeting.output == expected, "\(greeting)")

        // Several words holding a blank reach the service as one quoted argument.
        let newYork = try service.zaoan(["ask", "--socket", service.socketPath, "greeting", "New York"])
        #expect(newYork.status == 0 && newYork.output.hasSuffix(" · New York\n"), "\(newYork)")
        let oneWord = try service.zaoan(["ask", "--socket=" + service.socketPath, "duration 125"])
        #expect(oneWord.status == 0 && oneWord.output == "02:05\n", "\(oneWord)")

        let bogus = try service.zaoan(["ask", "--socket", service.socketPath, "bogus"])
        #expect(bogus.status == 1, "\(bogus)")
        // The ERR reply is printed, on stdout or (as an error) on stderr.
        #expect((bogus.output + bogus.errorOutput).contains("ERR unknown-command "), "\(bogus)")
        try service.stop()
    }

    @Test("zaoan ask with nobody listening exits 2 and names the socket")
    func askUnreachable() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = try TestService.isolatedEnvironment(in: directory)

        let missing = directory.file("nobody")
        let explicit = try Tool.run(Locations.zaoan, ["ask", "--socket", missing, "greeting"],
                                    environment: environment, timeout: 10, scratch: directory)
        #expect(!explicit.timedOut && explicit.status == 2, "\(explicit)")
        #expect(explicit.errorOutput.contains(missing), "\(explicit)")

        // Without --socket: the same resolution as serve, $XDG_RUNTIME_DIR/zaoan.sock.
        let resolved = try Tool.run(Locations.zaoan, ["ask", "greeting"],
                                    environment: environment, timeout: 10, scratch: directory)
        #expect(!resolved.timedOut && resolved.status == 2, "\(resolved)")
        #expect(resolved.errorOutput.contains(environment["XDG_RUNTIME_DIR"]! + "/zaoan.sock"), "\(resolved)")
    }

    @Test("check-config FILE on a missing file says create it or name another, not --config; the system socket's hint names the system unit (issue 33)")
    func missingFileAndSystemSocketHints() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = Tool.baseEnvironment(home: directory.path)
        let missing = try Tool.run(Locations.zaoan, ["check-config", directory.file("nowhere.json")], environment: environment, timeout: 10, scratch: directory)
        #expect(missing.status == 1 && missing.errorOutput.contains("nowhere.json does not exist; create it (zaoan.conf(5)), or name the file you meant"), "\(missing)")
        #expect(!missing.errorOutput.contains("--config"), "check-config was given a FILE, not --config: \(missing)")
        guard !FileManager.default.fileExists(atPath: "/run/zaoan/zaoan.sock") else {
            print("skipped the system socket's hint: /run/zaoan/zaoan.sock exists here (a system zaoan runs)")
            return
        }
        let system = try Tool.run(Locations.zaoan, ["ask", "--socket", "/run/zaoan/zaoan.sock", "ping"], environment: environment, timeout: 10, scratch: directory)
        #expect(system.status == 2 && system.errorOutput.contains("sudo systemctl enable --now zaoan.socket") && !system.errorOutput.contains("--user"), "\(system)")
        let user = try Tool.run(Locations.zaoan, ["ask", "--socket", directory.file("zaoan.sock"), "ping"], environment: environment, timeout: 10, scratch: directory)
        #expect(user.errorOutput.contains("systemctl --user enable --now zaoan.socket"), "\(user)")
    }

    @Test("check-config accepts a good file and names the bad key of a bad one")
    func checkConfig() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = try TestService.isolatedEnvironment(in: directory)
        func check(_ contents: String?, file: String = "c.json") throws -> ToolResult {
            if let contents { try directory.write(file, contents) }
            return try Tool.run(Locations.zaoan, ["check-config", directory.file(file)],
                                environment: environment, timeout: 10, scratch: directory)
        }

        let good = try check(#"{"language": "zh", "city": "东京", "idle_timeout": 60, "cities": {"拉萨": "Asia/Shanghai"}}"#)
        #expect(good.status == 0, "\(good)")
        #expect(good.output.contains("东京"), "\(good)")

        let cases: [(contents: String, key: String)] = [
            (#"{"citty": "北京"}"#, "citty"),
            (#"{"idle_timeout": "soon"}"#, "idle_timeout"),
            (#"{"timezone": "Mars/Olympus_Mons"}"#, "timezone"),
            (#"{"city": "Lilliput"}"#, "city"),  // Atlantis is a town in South Africa (GeoNames)
            (#"{"language": "pt"}"#, "language"),
            (#"{"cities": {"拉萨": "Asia/Lhasa_Nowhere"}}"#, "cities"),
        ]
        for (contents, key) in cases {
            let bad = try check(contents)
            #expect(bad.status != 0, "\(contents) should be rejected: \(bad)")
            #expect(bad.errorOutput.contains(key), "the message for \(contents) should name \(key): \(bad)")
        }
        let broken = try check(#"{"city": "北京""#)
        #expect(broken.status != 0, "\(broken)")

        // No argument: the default path under $XDG_CONFIG_HOME.
        try directory.write("config/zaoan/config.json", #"{"city": "Lilliput"}"#)
        let byDefault = try Tool.run(Locations.zaoan, ["check-config"], environment: environment, timeout: 10, scratch: directory)
        #expect(byDefault.status != 0 && byDefault.errorOutput.contains("city"), "\(byDefault)")
    }

    @Test("--version and --help print to stdout and exit 0; bad usage exits 64")
    func versionAndHelp() throws {
        let service = try TestService.start()
        let version = try service.zaoan(["--version"])
        #expect(version.status == 0, "\(version)")
        // The version and the git commit it was built from (issue 5).
        #expect(version.output.wholeMatch(of: /zaoan \d+\.\d+\.\d+ \(commit ([0-9a-f]{12}(-modified)?|unknown)\)\n/) != nil, "\(version)")
        #expect(try service.ask("version") == version.output, "the CLI and the service should report one version")

        let help = try service.zaoan(["--help"])
        #expect(help.status == 0 && help.errorOutput.isEmpty, "\(help)")
        for word in ["serve", "ask", "check-config", "--socket", "--version"] {
            #expect(help.output.contains(word), "--help should mention \(word)")
        }

        let unknown = try service.zaoan(["frobnicate"])
        #expect(unknown.status == 64 && !unknown.errorOutput.isEmpty, "\(unknown)")
        let badLanguage = try service.zaoan(["serve", "--socket", service.directory.file("x"), "--language", "pt"], timeout: 5)
        #expect(badLanguage.status == 64, "\(badLanguage)")
        #expect(badLanguage.errorOutput.contains("zh, en, zh-Hant, ja, ko, de, fr, es"), "\(badLanguage)")
        try service.stop()
    }
}
