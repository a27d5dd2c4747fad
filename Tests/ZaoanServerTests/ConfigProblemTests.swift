import Foundation
import Glibc
import Testing

/// Issue 18: a config problem never stops the service. The real binary starts with what it
/// can use of a bad file and says what it left aside — in its log and in `stats`, with the
/// file, line and column; `reload` of a bad file keeps the settings in force; `check-config`
/// stays strict. And the file may hold comments and trailing commas (JSONC).
@Suite("config problems: the service serves, and says what it ignored")
struct ConfigProblemTests {
    static let typo = """
        {
          // Tokyo, in English
          "language": "en", "city": "Tokyo",
          "soon_treshold": 60,
        }
        """

    private func city(of greeting: String) -> String {
        String(greeting.split(separator: "·").last ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func statsLines(_ service: TestService) throws -> [String] {
        try service.ask("stats").split(separator: "\n").map(String.init)
    }

    @Test("a typo: serve answers with the rest of the file, and names it with line:column in stats and the log, until a good reload")
    func typoAtStart() throws {
        let service = try TestService.start(config: Self.typo)
        defer { try? service.stop() }
        let path = service.configPath
        // The rest of the file is in force: English, Tokyo.
        let greeting = try service.ask("greeting")
        #expect(greeting.hasPrefix("Good ") && city(of: greeting) == "Tokyo", "\(greeting)")
        let problem = "\(path):4:3: config key 'soon_treshold': unknown key; did you mean 'soon_threshold'? (ignored)"
        var stats = try statsLines(service)
        #expect(stats.contains("config_problems: 1") && stats.contains("config_problem: " + problem), "\(stats)")
        #expect(service.stderrText.contains("<4>zaoan: \(problem); serving with the rest (zaoan check-config checks the file)"),
                "\(service.stderrText)")
        #expect(service.stderrText.contains("serving on \(service.socketPath); city Tokyo, zone Asia/Tokyo, language en, 0 live rooms; 1 config problem"),
                "\(service.stderrText)")
        for _ in 0..<10 { #expect(try service.ask("ping") == "pong\n") }

        // A bad file is still refused by reload, and what was in force stays, problem included.
        try service.directory.write("config/zaoan/config.json", #"{"language": "en", "city": "Paris", "idle_timeout": 0}"#)
        let refused = try service.ask("reload")
        #expect(refused == "ERR bad-config \(path):1:53: config key 'idle_timeout': must be between 1 and 86400, got 0; the previous settings stay in force\n",
                "\(refused)")
        #expect(city(of: try service.ask("greeting")) == "Tokyo")
        #expect(try statsLines(service).contains("config_problem: " + problem))

        // Fixed and reloaded: the problem is gone from stats.
        try service.directory.write("config/zaoan/config.json", #"{"language": "en", "city": "Paris", "soon_threshold": 60}"#)
        #expect(try service.ask("reload") == "ok\n")
        #expect(city(of: try service.ask("greeting")) == "Paris")
        stats = try statsLines(service)
        #expect(stats.contains("config_problems: 0") && !stats.contains { $0.hasPrefix("config_problem:") }, "\(stats)")
    }

    /// A file zaoan cannot read at all, or that is not JSON: every key at its default, and
    /// the reason in stats and the log. (Permissions cannot be tested as root, who reads
    /// every file; they take the same path as these, `ConfigPath.problem`.)
    @Test("a file that is not JSON, or cannot be read (a directory, too big): serve answers with the defaults and says why",
          arguments: ["syntax", "directory", "too big", "array"])
    func unreadable(kind: String) throws {
        var configuration = TestService.Configuration()
        configuration.arguments = ["--timezone", "Asia/Shanghai", "--language", "en"]
        configuration.beforeStart = { directory, _ in
            let file = directory.file("config/zaoan/config.json")
            _ = try directory.makeDirectory("config/zaoan")
            switch kind {
            case "syntax":
                try directory.write("config/zaoan/config.json", "{\n  \"city\": \"Tokyo\"\n  \"language\": \"zh\"\n}\n")
            case "directory":
                _ = try directory.makeDirectory("config/zaoan/config.json")
            case "too big":
                let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
                #expect(ftruncate(fd, 2 << 20) == 0)
                close(fd)
            default:
                try directory.write("config/zaoan/config.json", #"["city", "Tokyo"]"#)
            }
        }
        let service = try TestService.start(configuration)
        defer { try? service.stop() }
        let expected = [
            "syntax": "\(service.configPath):3:3: config: not valid JSON: expected ',' or '}' after the value of \"city\", found '\"' (using the defaults for every key)",
            "directory": "config: \(service.configPath) is a directory, not a file; point --config at a JSON file (using the defaults for every key)",
            "too big": "config: \(service.configPath) is 2097152 bytes, larger than the 1 MiB a config may be; is it the right file? (using the defaults for every key)",
            "array": "\(service.configPath):1:1: config: expected an object of keys and values, as {\"city\": \"东京\"}, not an array (using the defaults for every key)",
        ][kind]!
        let greeting = try service.ask("greeting")
        #expect(greeting.hasPrefix("Good ") && city(of: greeting) == "Beijing", "the flags and the defaults: \(greeting)")
        let stats = try statsLines(service)
        #expect(stats.contains("config_problems: 1") && stats.contains("config_problem: " + expected), "\(stats)")
        #expect(service.stderrText.contains("<4>zaoan: \(expected)"), "\(service.stderrText)")
    }

    /// Root reads every file, so the service runs as uid 65534 here, with a config only
    /// root may read.
    @Test("a config the service may not read: it serves with the defaults and says why")
    func unreadableForTheService() throws {
        guard geteuid() == 0, let setpriv = Locations.tool("setpriv") else {
            try Test.cancel("needs root and setpriv(1) to run the service as another user")
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        chmod(directory.path, 0o755)
        let home = try directory.makeDirectory("home", mode: 0o755)
        let run = try directory.makeDirectory("run", mode: 0o700)
        _ = try directory.makeDirectory("home/.config/zaoan", mode: 0o755)
        let config = home + "/.config/zaoan/config.json"
        try directory.write("home/.config/zaoan/config.json", #"{"language": "zh"}"#)
        chmod(config, 0o600)  // root's, as the directory made it
        for path in [home, home + "/.config", home + "/.config/zaoan", run] { chown(path, 65534, 65534) }
        var environment = Tool.baseEnvironment(home: home)
        environment["XDG_RUNTIME_DIR"] = run
        let socket = run + "/s"
        let log = directory.file("log")
        let service = try SpawnedProcess([setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", Locations.zaoan, "serve", "--socket", socket,
                                          "--language", "en"], environment: environment, outputPath: log)
        defer {
            service.signal(SIGTERM)
            _ = service.wait(timeout: 5)
        }
        let asNobody = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", Locations.zaoan, "ask", "--socket", socket]
        var stats = ""
        #expect(eventually(timeout: 10) {
            stats = (try? Tool.run(asNobody[0], Array(asNobody.dropFirst()) + ["stats"], environment: environment, timeout: 5, scratch: directory).output) ?? ""
            return stats.contains("config_problems:")
        }, "no answer; log: \(String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self))")
        let problem = "config: cannot read \(config) (opening \(config): Permission denied); check its permissions (using the defaults for every key)"
        #expect(stats.contains("config_problems: 1\nconfig_problem: \(problem)\n"), "\(stats)")
        let text = String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self)
        #expect(text.contains("<4>zaoan: \(problem); serving with the built-in defaults (zaoan check-config checks the file)"), "\(text)")
    }

    @Test("comments and trailing commas: a commented config is served as written")
    func commentedConfigServed() throws {
        let service = try TestService.start(config: """
            // ~/.config/zaoan/config.json
            {
              /* English, for a Tokyo desk */
              "language": "en",
              "city": "Tokyo",     // a built-in city
              "greetings": {
                "00:00": "Night, // not a comment",
                "12:00": "Day /* nor this */",
              },
              "status_template": "{greeting}",
            }
            """)
        defer { try? service.stop() }
        let status = try service.ask("status")
        #expect(["Night, // not a comment · Tokyo\n", "Day /* nor this */ · Tokyo\n"].contains(status), "\(status)")
        #expect(try statsLines(service).contains("config_problems: 0"))
        let check = try service.zaoan(["check-config", service.configPath])
        #expect(check.status == 0 && check.output.contains("ok (city Tokyo, zone Asia/Tokyo, language en)"), "\(check)")
    }

    @Test("check-config stays strict: every problem with file:line:column, exit 1; a missing calendar is a warning, exit 0")
    func checkConfigMessages() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = try TestService.isolatedEnvironment(in: directory)
        func check(_ text: String) throws -> ToolResult {
            try directory.write("c.json", text)
            return try Tool.run(Locations.zaoan, ["check-config", directory.file("c.json")], environment: environment, timeout: 10, scratch: directory)
        }
        let file = directory.file("c.json")
        let bad = try check("""
            {
              "soon_treshold": 60,
              "idle_timeout": "soon",
              "cities": {"Atlantis": "Ocean/Deep"},
              "city": "Tokyo",
            }
            """)
        #expect(bad.status == 1, "\(bad)")
        #expect(bad.errorOutput == """
            zaoan: \(file):2:3: config key 'soon_treshold': unknown key; did you mean 'soon_threshold'? (ignored)
            zaoan: \(file):3:19: config key 'idle_timeout': expected a whole number (using the default)
            zaoan: \(file):4:14: config key 'cities.Atlantis': 'Ocean/Deep' is not an IANA time zone (e.g. "Asia/Shanghai", "Europe/Berlin") (left out)
            zaoan: \(file): 3 problems; zaoan serve would start all the same, setting aside only what each names, as said in brackets

            """, "\(bad)")

        let syntax = try check("{\n  \"city\": \"Tokyo\",\n  \"language\": en\n}")
        #expect(syntax.status == 1 && syntax.errorOutput.hasPrefix("zaoan: \(file):3:15: config: not valid JSON: expected a value (an object, array, string, number, true, false or null), found 'en' (using the defaults for every key)\n"),
                "\(syntax)")

        let calendars = try check(#"{"calendars": ["/nonexistent-zaoan-calendar.ics", "\#(directory.path)"], "timezone": "UTC"}"#)
        #expect(calendars.status == 0, "a warning, not an error: \(calendars)")
        #expect(calendars.errorOutput == "zaoan: warning: \(file):1:16: config key 'calendars': '/nonexistent-zaoan-calendar.ics' does not exist (yet); the service reads it once it appears\n",
                "\(calendars)")
        #expect(calendars.output.contains(": ok ("), "\(calendars)")
    }

    @Test("an unknown request names the one meant, over the socket and from the client")
    func unknownRequestSuggestion() throws {
        let service = try TestService.start()
        defer { try? service.stop() }
        #expect(try service.ask("greting") == "ERR unknown-command unknown command 'greting' (did you mean 'greeting'?); send help for the list\n")
        #expect(try service.ask("frobnicate") == "ERR unknown-command unknown command 'frobnicate'; send help for the list\n")
        let asked = try service.zaoan(["ask", "--socket", service.socketPath, "greting"])
        #expect(asked.status == 1 && asked.errorOutput.contains("did you mean 'greeting'?"), "\(asked)")
        let word = try service.zaoan(["greting"])
        #expect(word.status == 64 && word.errorOutput == "zaoan: unknown command 'greting' (did you mean 'zaoan ask greeting'?); run zaoan --help\n", "\(word)")
        let command = try service.zaoan(["wacth", "time"])
        #expect(command.status == 64 && command.errorOutput.contains("(did you mean 'zaoan watch'?)"), "\(command)")
    }

    /// `zaoan bar` reads its keys from the same file, with the same reader: comments do not
    /// stop it, and a problem in a bar key is named with its line and column.
    @Test("zaoan bar reads a commented config too, and names a bad bar entry with line:column")
    func barReadsJSONC() throws {
        let service = try TestService.start(config: """
            {
              // the bar's one block
              "bar_blocks": ["time HH:mm:ss",],  /* a clock */
            }
            """)
        defer { try? service.stop() }
        let bar = try RunningZaoan(["bar", "--socket", service.socketPath], environment: service.environment, scratch: service.directory)
        let line = bar.line(within: 10) { $0.hasPrefix("[{") && $0.contains("\"full_text\":") }
        #expect(line.map { $0.wholeMatch(of: /\[\{.*"full_text":"\d\d:\d\d:\d\d".*\}\],/) != nil } == true,
                "\(line ?? "no line"); stderr: \(bar.errorText)")
        #expect(bar.terminate())

        try service.directory.write("bad.json", "{\n  // a bad block\n  \"bar_blocks\": [\"session\"]\n}")
        // A bad value costs only itself: the only block is bad, so the bar shows the default
        // blocks and warns, naming the entry's line:column.
        let warned = try RunningZaoan(["bar", "--socket", service.socketPath, "--config", service.directory.file("bad.json")],
                                      environment: service.environment, scratch: service.directory)
        defer { _ = warned.terminate() }
        #expect(warned.line(within: 10) { $0.contains("\"instance\":\"3-time\"") } != nil, "the default blocks; stderr: \(warned.errorText)")
        #expect(eventually(timeout: 10) { warned.errorText.contains("warning: \(service.directory.file("bad.json")):3:18: config key 'bar_blocks': 'session'")
                    && warned.errorText.contains("(using the default)") }, "\(warned.errorText)")
    }
}
