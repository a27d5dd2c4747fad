import Foundation
import Glibc
import Testing
import ZaoanCore

/// Shell completion for `zaoan` (issue 4, "CLI niceties"): packaging/completions/zaoan.bash
/// and packaging/completions/_zaoan, run in the real bash and zsh. bash's function is called
/// the way readline calls it (COMP_WORDS, COMP_CWORD, COMP_LINE, COMP_POINT) and, once, from
/// a real interactive bash in a pty; zsh's runs in an interactive `zsh -f -i` in a pty
/// (zsh/zpty), where the test types a line and ^D (list-choices) and reads the listing.
/// Room IDs come from a real `zaoan serve`.
@Suite("Shell completion")
struct CompletionTests {
    static let directory = Locations.packageRoot + "/packaging/completions"
    static let bashFile = directory + "/zaoan.bash"
    static let zshFile = directory + "/_zaoan"

    // MARK: - What the completions should offer, from the sources

    static let subcommands: Set = ["serve", "ask", "watch", "bar", "click", "join", "cal", "check-config"]
    /// Request words for `zaoan ask`: the first words of the request table's rows, less the
    /// connection controls `session` and `quit` (meaningless for a one-shot CLI) and the
    /// option `--format` (an option of `ask` here).
    static let askWords: Set<String> = Set(RequestKind.table.filter { !$0.effect.controlsConnection && $0.shape != .option }
        .map { String($0.firstWord) })
    /// What `watch` can stream (the rows' `isWatchable`): not `watch` itself, nor `reload`.
    static let watchWords: Set<String> = Set(RequestKind.table.filter { $0.isWatchable && $0.shape != .option }.map { String($0.firstWord) })
    /// After `zaoan ask watch`: those, and the stream `watch events` names.
    static let askWatchWords: Set<String> = watchWords.union(["events"])
    /// `zaoan click`'s blocks: the first words of those `bar_clicks` names.
    static let clickBlocks: Set<String> = Set(BarClicks.blockWords.map { String($0.prefix { $0 != " " }) })
    static let cities: Set<String> = Set(BuiltinCities.all.flatMap { [$0.chinese, $0.english] })
    /// A city as the shell inserts it: blanks escaped.
    static func escaped(_ word: String) -> String { word.replacingOccurrences(of: " ", with: "\\ ") }

    /// `zaoan --help`'s usage lines: for each subcommand (and "" for `zaoan --help | --version`),
    /// its options, and for options with listed values (`--format plain|json|...`), those values.
    static func usage(environment: [String: String], scratch: TemporaryDirectory) throws
        -> (options: [String: Set<String>], values: [String: [String: Set<String>]]) {
        let help = try Tool.run(Locations.zaoan, ["--help"], environment: environment, timeout: 10, scratch: scratch)
        guard help.status == 0, let start = help.output.range(of: "Usage:\n") else {
            throw TestFailure("zaoan --help gave no Usage section: \(help)")
        }
        var options: [String: Set<String>] = [:]
        var values: [String: [String: Set<String>]] = [:]
        var current: String?
        for line in help.output[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty { break }
            if text.hasPrefix("zaoan ") {
                let second = text.split(separator: " ")[1]
                current = second.hasPrefix("-") ? "" : String(second)
                options[current!, default: []].formUnion([])
            }
            guard let command = current else { continue }
            for match in text.matches(of: #/(--[a-z][a-z-]*)(?: ([a-z0-9]+(?:\|[a-z0-9]+)+))?/#) {
                let option = String(match.output.1)
                options[command, default: []].insert(option)
                if let list = match.output.2 {
                    values[command, default: [:]][option] = Set(list.split(separator: "|").map(String.init))
                }
            }
        }
        return (options, values)
    }

    // MARK: - bash

    /// COMP_WORDS as readline splits `line` (no quotes in these lines): blanks separate words,
    /// `=` (in COMP_WORDBREAKS) is a word of its own, and a line ending in a blank gets an
    /// empty last word.
    static func compWords(_ line: String) -> [String] {
        var words: [String] = []
        for blankSeparated in line.split(separator: " ") {
            var piece = ""
            for character in blankSeparated {
                if character == "=" {
                    if !piece.isEmpty { words.append(piece) }
                    words.append("=")
                    piece = ""
                } else {
                    piece.append(character)
                }
            }
            if !piece.isEmpty { words.append(piece) }
        }
        if line.hasSuffix(" ") { words.append("") }
        return words
    }

    static func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    struct BashCompletion: CustomStringConvertible {
        let replies: [String]
        let result: ToolResult
        var set: Set<String> { Set(replies) }
        var description: String { "COMPREPLY \(replies); bash \(result)" }
    }

    /// Sources zaoan.bash in `bash --norc --noprofile -c`, sets COMP_* as readline would for
    /// the cursor at the end of `line`, calls `_zaoan` and reads COMPREPLY.
    static func bash(_ line: String, environment: [String: String], scratch: TemporaryDirectory) throws -> BashCompletion {
        let words = compWords(line)
        let script = """
            source \(shellQuoted(bashFile)) || exit 3
            [[ $(complete -p zaoan) == 'complete -F _zaoan zaoan' ]] || exit 4
            COMP_WORDS=(\(words.map(shellQuoted).joined(separator: " ")))
            COMP_CWORD=\(words.count - 1)
            COMP_LINE=\(shellQuoted(line))
            COMP_POINT=${#COMP_LINE}
            COMPREPLY=()
            _zaoan || exit 5
            ((${#COMPREPLY[@]})) && printf '%s\\n' "${COMPREPLY[@]}"
            exit 0
            """
        let result = try Tool.run(try tool("bash"), ["--norc", "--noprofile", "-c", script],
                                  environment: environment, timeout: 10, scratch: scratch)
        guard result.status == 0, !result.timedOut else { throw TestFailure("bash completion of '\(line)' failed: \(result)") }
        return BashCompletion(replies: result.output.split(separator: "\n").map(String.init), result: result)
    }

    static func tool(_ name: String) throws -> String {
        guard let path = Locations.tool(name) else { throw TestFailure("\(name) not found; install the Debian package \(name)") }
        return path
    }

    /// The environment for a shell that completes `zaoan`: the test's own, with the built
    /// `zaoan` first on PATH (the completions run it to list rooms).
    static func shellEnvironment(_ base: [String: String]) -> [String: String] {
        var environment = base
        let binDirectory = (Locations.zaoan as NSString).deletingLastPathComponent
        environment["PATH"] = binDirectory + ":" + (base["PATH"] ?? "/usr/bin:/bin")
        return environment
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let line: String
        let expected: Set<String>
        init(_ line: String, _ expected: Set<String>) {
            self.line = line
            self.expected = expected
        }
        var testDescription: String { "'\(line)'" }
    }

    static let staticCases: [Case] = [
        Case("zaoan ", subcommands.union(["--help", "--version"])),
        Case("zaoan wa", ["watch"]),
        Case("zaoan serve --", ["--socket", "--config", "--city", "--timezone", "--language", "--exit-idle-time", "--verbose"]),
        Case("zaoan serve --socket /tmp/s --verbose --", ["--config", "--city", "--timezone", "--language", "--exit-idle-time"]),
        Case("zaoan serve --language ", ["zh", "zh-Hant", "en", "ja", "ko", "de", "fr", "es"]),
        Case("zaoan serve --language=", ["zh", "zh-Hant", "en", "ja", "ko", "de", "fr", "es"]),
        Case("zaoan serve --city New", ["New\\ York"]),
        Case("zaoan serve --city=北", ["北京"]),
        Case("zaoan serve --timezone Asia/Shang", ["Asia/Shanghai"]),
        Case("zaoan ask ", askWords),
        Case("zaoan ask -", ["--socket", "--format", "--timeout"]),
        Case("zaoan ask --format ", ["plain", "json", "i3bar", "tmux", "polybar"]),
        Case("zaoan ask --format=", ["plain", "json", "i3bar", "tmux", "polybar"]),
        Case("zaoan ask --format=j", ["json"]),
        Case("zaoan ask --format json ", askWords),
        Case("zaoan ask --format=json ", askWords),
        Case("zaoan ask --socket /tmp/s -- ", askWords),
        Case("zaoan ask live ", ["add", "rm", "skip", "list", "show"]),
        Case("zaoan ask live add r1 +2h Title e", ["end="]),
        Case("zaoan ask greeting ", Set(cities.map(escaped))),
        Case("zaoan ask greeting Lo", ["London", "Los\\ Angeles"]),
        Case("zaoan ask watch ", askWatchWords),
        Case("zaoan ask watch --f", ["--format="]),
        Case("zaoan ask --format=json watch live ", ["list", "show"]),
        Case("zaoan watch ", watchWords),
        Case("zaoan watch --format i3bar live ", ["list", "show"]),
        Case("zaoan watch greeting 东", ["东京"]),
        Case("zaoan bar --", ["--socket", "--config", "--retry-after"]),
        Case("zaoan bar --config /tmp/c --", ["--socket", "--retry-after"]),
        Case("zaoan click ", clickBlocks),
        Case("zaoan click --config /tmp/c ", clickBlocks),
        Case("zaoan click ticker ", Set(ClickButton.names)),
        Case("zaoan click live ", ["list", "show"]),
        Case("zaoan click live list w", ["wheel-up", "wheel-down"]),
        Case("zaoan click ticker left ", []),
        Case("zaoan join ", ["countdown", "ticker", "status"]),
        Case("zaoan join --socket /tmp/s ", ["countdown", "ticker", "status"]),
        Case("zaoan join --", ["--socket", "--config"]),
        Case("zaoan join status ", []),
        Case("zaoan check-config /nonexistent-zaoan-dir/", []),
        Case("zaoan check-config \(directory)/zaoan.b", ["\(directory)/zaoan.bash"]),
        Case("zaoan bar --config=\(directory)/_za", ["\(directory)/_zaoan"]),
        Case("zaoan serve --exit-idle-time ", []),
        Case("zaoan ask time ", []),
        Case("zaoan ask schedule ", ["calendar="]),
        Case("zaoan ask privacy ", ["on", "off"]),
        Case("zaoan ask event ", ["add", "rm"]),
        Case("zaoan ask schedule 24 c", ["calendar="]),
        Case("zaoan watch --format=json schedule cal", ["calendar="]),
        Case("zaoan ask schedule 2", []),
        Case("zaoan ask schedule calendar=x ", []),
    ]

    @Test("bash: subcommands, options, option values and request words", arguments: staticCases)
    func bashStatic(_ testCase: Case) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = Self.shellEnvironment(try TestService.isolatedEnvironment(in: directory))
        let completion = try Self.bash(testCase.line, environment: environment, scratch: directory)
        #expect(completion.set == testCase.expected, "\(completion)")
        #expect(completion.replies.count == completion.set.count, "no duplicates: \(completion)")
        #expect(completion.result.errorOutput.isEmpty, "quiet: \(completion)")
    }

    @Test("bash: every subcommand, option and option value in zaoan --help is completed")
    func bashFollowsUsage() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = Self.shellEnvironment(try TestService.isolatedEnvironment(in: directory))
        let usage = try Self.usage(environment: environment, scratch: directory)
        #expect(Set(usage.options.keys) == Self.subcommands.union([""]), "\(usage.options)")

        let top = try Self.bash("zaoan ", environment: environment, scratch: directory)
        #expect(top.set == Set(usage.options.keys).subtracting([""]).union(usage.options[""]!), "\(top)")
        for (command, options) in usage.options where !command.isEmpty && !options.isEmpty {
            let completion = try Self.bash("zaoan \(command) --", environment: environment, scratch: directory)
            #expect(completion.set == options, "zaoan \(command) --: \(completion)")
        }
        for (command, table) in usage.values {
            for (option, values) in table {
                let completion = try Self.bash("zaoan \(command) \(option) ", environment: environment, scratch: directory)
                #expect(completion.set == values, "zaoan \(command) \(option): \(completion)")
            }
        }
    }

    /// A service with rooms, reached through its default socket ($XDG_RUNTIME_DIR/zaoan.sock).
    static func serviceWithRooms(extraRooms: [String] = []) throws -> TestService {
        var configuration = TestService.Configuration()
        configuration.socket = .resolvedByZaoan
        configuration.arguments = ["--language", "en"]
        let service = try TestService.start(configuration)
        for room in ["live add morning-show +2h Morning show", "live add night_talk +5h 夜谈"] + extraRooms {
            let answer = try service.ask(room)
            guard answer == "ok\n" else { throw TestFailure("\(room) answered \(answer.debugDescription)") }
        }
        return service
    }

    @Test("bash: room IDs for countdown, live rm and live show come from the running service")
    func bashRooms() throws {
        let service = try Self.serviceWithRooms()
        let environment = Self.shellEnvironment(service.environment)
        let scratch = service.directory
        let rooms: Set = ["morning-show", "night_talk"]

        for line in ["zaoan ask countdown ", "zaoan ask live rm ", "zaoan ask live show ", "zaoan watch countdown ",
                     "zaoan watch --format=json live show ", "zaoan ask --format i3bar watch countdown "] {
            let completion = try Self.bash(line, environment: environment, scratch: scratch)
            #expect(completion.set == rooms, "\(line): \(completion)")
            #expect(completion.result.errorOutput.isEmpty, "\(line): \(completion)")
        }
        let prefixed = try Self.bash("zaoan ask countdown n", environment: environment, scratch: scratch)
        #expect(prefixed.replies == ["night_talk"], "\(prefixed)")
        // Not after the ID, and not for live list / live add.
        for line in ["zaoan ask countdown night_talk ", "zaoan ask live list ", "zaoan ask live add "] {
            let completion = try Self.bash(line, environment: environment, scratch: scratch)
            #expect(completion.replies.isEmpty, "\(line): \(completion)")
        }

        // --socket on the command line is the socket asked, whatever XDG_RUNTIME_DIR says.
        var elsewhere = environment
        elsewhere["XDG_RUNTIME_DIR"] = try service.directory.makeDirectory("empty-run")
        for line in ["zaoan ask --socket \(service.socketPath) countdown ",
                     "zaoan watch --format json --socket=\(service.socketPath) live show "] {
            let completion = try Self.bash(line, environment: elsewhere, scratch: scratch)
            #expect(completion.set == rooms, "\(line): \(completion)")
        }
        // No service there: nothing, silently.
        let down = try Self.bash("zaoan ask countdown ", environment: elsewhere, scratch: scratch)
        #expect(down.replies.isEmpty && down.result.errorOutput.isEmpty, "\(down)")
        try service.stop()
    }

    @Test("bash: a service that accepts but never answers costs at most about a second")
    func bashSilentService() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = Self.shellEnvironment(try TestService.isolatedEnvironment(in: directory))
        let path = directory.file("silent.sock")
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: \(errno)") }
        defer { close(fd) }
        let bound = try withUnixAddress(path) { bind(fd, $0, $1) }
        guard bound == 0, listen(fd, 8) == 0 else { throw TestFailure("bind/listen \(path): \(errno)") }

        let completion = try Self.bash("zaoan ask --socket \(path) countdown ", environment: environment, scratch: directory)
        #expect(completion.replies.isEmpty && completion.result.errorOutput.isEmpty, "\(completion)")
        #expect(completion.result.elapsed < 3, "timeout 1 s, plus bash: \(completion)")
    }

    @Test("bash: a real interactive bash completes through readline (= splitting, quoting, rooms)")
    func bashInteractive() throws {
        let service = try Self.serviceWithRooms()
        let environment = Self.shellEnvironment(service.environment)
        let cases: [(typed: String, shown: String)] = [
            ("zaoan wa", "zaoan watch "),
            ("zaoan ask --format=j", "zaoan ask --format=json "),
            ("zaoan serve --language=j", "zaoan serve --language=ja "),
            ("zaoan serve --language=zh-", "zaoan serve --language=zh-Hant "),
            ("zaoan serve --city New", "zaoan serve --city New\\ York "),
            ("zaoan ask live sh", "zaoan ask live show "),
            ("zaoan ask countdown mor", "zaoan ask countdown morning-show "),
        ]
        // readline echoes what is typed only when the tty's ECHO flag is on; zpty's is off.
        let chunks = try Self.pty(shell: "stty echo; exec bash --norc --noprofile -i",
                                  setup: "PS1='B> '; source \(Self.shellQuoted(Self.bashFile))",
                                  prompt: "B> ", key: "\\t", lines: cases.map(\.typed),
                                  environment: environment, scratch: service.directory)
        for (index, testCase) in cases.enumerated() {
            let visible = Self.withoutEscapes(chunks[index])
            #expect(visible.contains(testCase.shown), "typed \(testCase.typed.debugDescription)⇥, got \(visible.debugDescription)")
        }
        try service.stop()
    }

    // MARK: - zsh

    @Test("both files parse: bash -n and zsh -n")
    func syntax() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = try TestService.isolatedEnvironment(in: directory)
        let bash = try Tool.run(try Self.tool("bash"), ["-n", Self.bashFile], environment: environment, scratch: directory)
        #expect(bash.status == 0 && bash.errorOutput.isEmpty, "\(bash)")
        let zsh = try Tool.run(try Self.tool("zsh"), ["-n", Self.zshFile], environment: environment, scratch: directory)
        #expect(zsh.status == 0 && zsh.errorOutput.isEmpty, "\(zsh)")
        let head = try String(contentsOfFile: Self.zshFile, encoding: .utf8).prefix(while: { $0 != "\n" })
        #expect(head == "#compdef zaoan")
    }

    /// Runs `shell` in a pty under `zsh -f` with zsh/zpty, sends `setup`, then for each line
    /// types it and `key` (a zsh $'...' escape) after the prompt, then kills the line and
    /// prints a marker. Returns what the shell wrote for each line, up to its marker.
    static func pty(shell: String, setup: String, prompt: String, key: String, lines: [String],
                    environment: [String: String], scratch: TemporaryDirectory) throws -> [String] {
        let separator = "=== zaoan-completion-case"
        let driver = """
            zmodload zsh/zpty || exit 3
            zpty z \(shellQuoted("stty cols 200 rows 300; " + shell)) || exit 4
            zpty -w z \(shellQuoted(setup + "; echo READY-$((40+2))"))
            zpty -r z out '*READY-42*' || exit 5
            lines=(\(lines.map(shellQuoted).joined(separator: " ")))
            integer n=0
            nl=$'\\n'
            for line in $lines; do
              (( n++ ))
              zpty -r z out \(shellQuoted("*" + prompt)) || exit 6
              before=$out
              zpty -w -n z "$line"$'\(key)'
              zpty -w z $'\\C-u'"echo MARK-\\$(( $n + 1000 ))"
              zpty -r z out "*MARK-$(( n + 1000 ))*" || exit 7
              print -r -- \(shellQuoted(separator))
              print -r -- "${before##*$nl}$out"
            done
            zpty -d z
            """
        try scratch.write("driver.zsh", driver)
        let result = try Tool.run(try tool("zsh"), ["-f", scratch.file("driver.zsh")], environment: environment,
                                  timeout: 15, scratch: scratch)
        let chunks = result.output.components(separatedBy: separator + "\n").dropFirst()
        guard result.status == 0, !result.timedOut, chunks.count == lines.count else {
            throw TestFailure("the pty session did not finish every line: \(result)")
        }
        return Array(chunks)
    }

    static func withoutEscapes(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
    }

    /// The candidates zsh listed after a ^D: the lines between the typed line and the next
    /// prompt; for `word -- description` lines the words before ` -- `; words are separated by
    /// blanks that are not escaped (`New\ York` is one).
    static func listed(_ chunk: String, prompt: String) -> Set<String> {
        // By Unicode scalars: as Characters, "\r\n" is one and splits on neither.
        let rawLines = withoutEscapes(chunk).unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String(String.UnicodeScalarView($0)) }
        guard let typed = rawLines.firstIndex(where: { $0.contains(prompt) }) else { return [] }
        var candidates: Set<String> = []
        for raw in rawLines[(typed + 1)...] {
            // zle redraws the prompt and line under the listing; with nothing listed, the
            // marker the driver prints comes next.
            if raw.contains(prompt) || raw.hasPrefix("MARK-") { break }
            // What stays on screen: the text after the last carriage return that ends nothing.
            var line = raw.unicodeScalars[...]
            while line.last == "\r" { line = line.dropLast() }
            if let carriageReturn = line.lastIndex(of: "\r") { line = line[line.index(after: carriageReturn)...] }
            let text = String(String.UnicodeScalarView(line))
            candidates.formUnion(unescapedWords(text.components(separatedBy: " -- ").first ?? text))
        }
        return candidates
    }

    /// `a  New\ York b` → a, `New\ York`, b.
    static func unescapedWords(_ text: String) -> [String] {
        var words: [String] = []
        var word = ""
        for character in text {
            if character == " " && !word.hasSuffix("\\") {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    static func zshCompletions(_ lines: [String], environment: [String: String], scratch: TemporaryDirectory) throws -> [Set<String>] {
        let setup = "PS1='ZP> '; fpath=(\(directory) $fpath); autoload -Uz compinit; compinit -u -D"
        let chunks = try pty(shell: "exec zsh -f -i", setup: setup, prompt: "ZP> ", key: "\\C-d", lines: lines,
                             environment: environment, scratch: scratch)
        return chunks.map { listed($0, prompt: "ZP> ") }
    }

    @Test("zsh: subcommands, options, option values and request words, listed by a real zsh -i")
    func zshStatic() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = Self.shellEnvironment(try TestService.isolatedEnvironment(in: directory))
        let usage = try Self.usage(environment: environment, scratch: directory)
        var cases: [Case] = [
            Case("zaoan ", Self.subcommands),
            Case("zaoan -", ["-h", "--help", "-V", "--version"]),
            Case("zaoan serve --", ["--socket", "--config", "--city", "--timezone", "--language", "--exit-idle-time", "--verbose"]),
            Case("zaoan serve --language ", ["zh", "zh-Hant", "en", "ja", "ko", "de", "fr", "es"]),
            Case("zaoan serve --language=", ["zh", "zh-Hant", "en", "ja", "ko", "de", "fr", "es"]),
            Case("zaoan serve --city New", ["New\\ York"]),
            Case("zaoan ask ", Self.askWords),
            Case("zaoan ask --format ", ["plain", "json", "i3bar", "tmux", "polybar"]),
            Case("zaoan ask --format=", ["plain", "json", "i3bar", "tmux", "polybar"]),
            Case("zaoan ask --format=json ", Self.askWords),
            Case("zaoan ask --socket /tmp/s --format json ", Self.askWords),
            Case("zaoan ask live ", ["add", "rm", "skip", "list", "show"]),
            Case("zaoan ask greeting ", Set(Self.cities.map(Self.escaped))),
            Case("zaoan ask watch ", Self.askWatchWords),
            Case("zaoan ask --format=i3bar watch live ", ["list", "show"]),
            Case("zaoan watch ", Self.watchWords),
            Case("zaoan watch live ", ["list", "show"]),
            Case("zaoan bar --", ["--socket", "--config", "--retry-after"]),
            Case("zaoan ask schedule ", ["calendar="]),
            Case("zaoan ask privacy ", ["on", "off"]),
            Case("zaoan ask event ", ["add", "rm"]),
            Case("zaoan watch schedule 24 ", ["calendar="]),
            Case("zaoan join ", ["countdown", "ticker", "status"]),
        ]
        // And whatever zaoan --help lists, so the completion keeps up with the usage.
        for (command, options) in usage.options.sorted(by: { $0.key < $1.key }) where !command.isEmpty && !options.isEmpty {
            cases.append(Case("zaoan \(command) --", options))
        }
        for (command, table) in usage.values.sorted(by: { $0.key < $1.key }) {
            for (option, values) in table.sorted(by: { $0.key < $1.key }) {
                cases.append(Case("zaoan \(command) \(option) ", values))
            }
        }
        let listings = try Self.zshCompletions(cases.map(\.line), environment: environment, scratch: directory)
        for (testCase, listing) in zip(cases, listings) {
            #expect(listing == testCase.expected, "zsh '\(testCase.line)'^D")
        }
    }

    @Test("zsh: room IDs from the running service, titles shown but never run")
    func zshRooms() throws {
        let marker = "/tmp/zaoan-completion-pwned-\(getpid())"
        unlink(marker)
        defer { unlink(marker) }
        let service = try Self.serviceWithRooms(extraRooms: ["live add evil +3h $(touch \(marker)) `touch \(marker)` %F{red}red%f"])
        let environment = Self.shellEnvironment(service.environment)
        let rooms: Set = ["morning-show", "night_talk", "evil"]
        var elsewhere = environment
        elsewhere["XDG_RUNTIME_DIR"] = try service.directory.makeDirectory("empty-run")

        let lines = ["zaoan ask countdown ", "zaoan ask live show ", "zaoan ask live rm ", "zaoan watch --format=json countdown ",
                     "zaoan ask countdown n", "zaoan ask live list "]
        let listings = try Self.zshCompletions(lines, environment: environment, scratch: service.directory)
        #expect(listings[0] == rooms)
        #expect(listings[1] == rooms)
        #expect(listings[2] == rooms)
        #expect(listings[3] == rooms)
        #expect(listings[4] == ["night_talk"])
        #expect(listings[5] == [])

        // --socket on the command line wins over XDG_RUNTIME_DIR; with no service, nothing.
        let socketLines = ["zaoan ask --socket \(service.socketPath) countdown ", "zaoan ask countdown "]
        let elsewhereListings = try Self.zshCompletions(socketLines, environment: elsewhere, scratch: service.directory)
        #expect(elsewhereListings[0] == rooms)
        #expect(elsewhereListings[1] == [])
        #expect(!FileManager.default.fileExists(atPath: marker), "a room title ran as code")
        try service.stop()
    }
}
