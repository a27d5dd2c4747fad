import Foundation
import Glibc
import Testing

/// The prompt snippets: packaging/integrations/zsh/zaoan.zsh and bash/zaoan.bash, sourced by a
/// real `zsh -i` / `bash -i` (Debian's packages) against a real service. The prompt must show
/// the greeting; a hostile room title must show as typed and never run or style anything; the
/// zsh prompt must not fork.
@Suite("Integrations: shell prompts")
struct IntegrationShellTests {
    static var zsh: String? { Locations.tool("zsh") }
    static var bash: String? { Locations.tool("bash") }

    /// A ZDOTDIR whose .zshrc sets a known PROMPT, then `lines`, then sources the snippet.
    /// The system-wide rc files are skipped (.zshenv unsets GLOBAL_RCS) so that only the
    /// snippet runs.
    static func zdotdir(_ world: IntegrationWorld, _ lines: [String] = []) throws -> String {
        let directory = try world.scratch.makeDirectory("zdot-\(UUID().uuidString.prefix(6))")
        try world.scratch.write((directory as NSString).lastPathComponent + "/.zshenv", "unsetopt global_rcs\n")
        let rc = ["PROMPT='%~ %# '"] + lines + ["source \(Snippet.path("zsh/zaoan.zsh"))"]
        try world.scratch.write((directory as NSString).lastPathComponent + "/.zshrc", rc.joined(separator: "\n") + "\n")
        return directory
    }

    /// An rcfile for `bash --rcfile` that sets a known PS1, then `lines`, then sources the snippet.
    static func bashrc(_ world: IntegrationWorld, _ lines: [String] = []) throws -> String {
        let name = "bashrc-\(UUID().uuidString.prefix(6))"
        let rc = ["PS1='\\w\\$ '"] + lines + ["source \(Snippet.path("bash/zaoan.bash"))"]
        try world.scratch.write(name, rc.joined(separator: "\n") + "\n")
        return world.scratch.file(name)
    }

    /// Runs zsh's precmd hooks the way the line editor does before a prompt, then prints the
    /// prompt as zsh expands it (print -P: prompt_subst, then % escapes), between markers.
    static let zshPromptScript =
        #"for f in $precmd_functions; do $f; done; print -rn -- "<<"; print -rnP -- "$PROMPT"; print -r -- ">>""#

    static func between(_ output: String) -> String? {
        guard let start = output.range(of: "<<"), let end = output.range(of: ">>", options: .backwards),
              start.upperBound <= end.lowerBound else { return nil }
        return String(output[start.upperBound..<end.lowerBound])
    }

    // MARK: - zsh

    @Test("zsh: a real interactive zsh shows the greeting in its prompt, and forks no process per prompt")
    func zshPrompt() throws {
        let zsh = try #require(Self.zsh, "zsh not found; install the Debian package zsh")
        let world = try IntegrationWorld()
        let greeting = try world.service.ask("greeting").trimmingCharacters(in: .newlines)
        let zdotdir = try Self.zdotdir(world)

        // Expanded by zsh itself.
        let expanded = try world.run(zsh, ["-i", "-c", Self.zshPromptScript], environment: ["ZDOTDIR": zdotdir])
        #expect(Self.between(expanded.output)?.hasPrefix(greeting + " ") == true, "\(expanded)")
        #expect(expanded.errorOutput.isEmpty, "\(expanded)")

        // No external command either: with an empty PATH the greeting still comes.
        let noPath = try world.run(zsh, ["-i", "-c", "path=(); hash -r; " + Self.zshPromptScript], environment: ["ZDOTDIR": zdotdir])
        #expect(Self.between(noPath.output)?.hasPrefix(greeting + " ") == true, "precmd needs no command from PATH: \(noPath)")

        // On a terminal, with the line editor drawing each prompt, traced: five prompts, and
        // not one clone, fork or exec after zsh's own.
        let strace = Locations.tool("strace")
        let trace = world.scratch.file("zsh.trace")
        let tmux = try Tmux("tz", world: world, environment: ["ZDOTDIR": zdotdir])
        defer { tmux.kill() }
        let command = strace.map { "\($0) -f -q -e trace=clone,clone3,fork,vfork,execve -o \(trace) \(zsh) -i" } ?? "\(zsh) -i"
        try tmux.start(command, width: 160, height: 20)
        var screen = tmux.waitForScreen { $0.contains(greeting + " ") }
        #expect(screen.contains(greeting + " "), "zsh's first prompt should show the greeting: \(screen)")
        for _ in 0..<4 { try tmux.sendKeys("true", "Enter") }
        screen = tmux.waitForScreen { $0.components(separatedBy: greeting + " ").count - 1 >= 5 }
        #expect(screen.components(separatedBy: greeting + " ").count - 1 >= 5, "five prompts with the greeting: \(screen)")
        try tmux.sendKeys("exit", "Enter")
        if strace != nil {
            var traced = ""
            _ = eventually(timeout: 5, interval: 0.05) {
                traced = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
                return traced.contains("+++ exited")
            }
            let calls = traced.split(separator: "\n").filter { line in
                ["clone(", "clone3(", "fork(", "vfork(", "execve("].contains { line.contains($0) }
            }
            #expect(calls.count == 1 && calls.first?.contains("execve(\"\(zsh)\"") == true,
                    "a zsh session of five prompts should exec only zsh itself and fork nothing: \(calls)")
        } else {
            // The empty-PATH run above still shows precmd needs no program; scripts/test
            // installs strace, so this only happens when the tests run elsewhere.
            print("note: strace not found (Debian package strace): zsh's fork count not checked")
        }
        try world.service.stop()
    }

    @Test("zsh: one session connection for every prompt; nothing while the service is down; back after a restart")
    func zshReconnects() throws {
        let zsh = try #require(Self.zsh, "zsh not found; install the Debian package zsh")
        let shared = try TemporaryDirectory()
        defer { shared.remove() }
        let socket = shared.file("s")
        let first = try IntegrationWorld(socket: .path(socket))
        let greeting = try first.service.ask("greeting").trimmingCharacters(in: .newlines)
        let zdotdir = try Self.zdotdir(first, ["zaoan_socket=\(socket)"])
        var environment = first.environment
        environment["ZDOTDIR"] = zdotdir
        // zsh -i reading its commands from a socket the test writes to; each command runs the
        // precmd hook (as before a prompt) and prints the variable the prompt shows.
        let shell = try StreamingProcess([zsh, "-i"], environment: environment, stderrPath: first.scratch.file("zsh.err"))
        defer { shell.stop() }
        func send(_ command: String) throws -> String {
            try shell.send(command + "\n")
            while true {
                guard let line = try shell.readLine(timeout: 5) else { throw TestFailure("zsh exited; stderr: \(shell.errorText)") }
                if let value = Self.between(line) { return value }
            }
        }
        func prompt() throws -> String { try send(#"_zaoan_precmd; print -r -- "<<$zaoan_greeting>>""#) }
        /// zsh's open descriptors, counted without a process.
        func descriptors() throws -> String { try send(#"fds=(/proc/$$/fd/*(N)); print -r -- "<<$#fds>>""#) }

        #expect(try prompt() == greeting)
        let openAtFirst = try descriptors()
        let before = Int(try Live.stats(socket)["connections_total"] ?? "") ?? -1
        for _ in 0..<5 { #expect(try prompt() == greeting) }
        let after = Int(try Live.stats(socket)["connections_total"] ?? "") ?? -1
        #expect(after - before == 1, "five prompts should reuse the session (only the stats request connected): \(before) → \(after)")

        // Restarted between two prompts: the old connection is dead; the next prompt notices,
        // connects again and still shows the greeting.
        try first.service.stop()
        let second = try IntegrationWorld(socket: .path(socket))
        #expect(try prompt() == greeting, "the first prompt after a restart reconnects")

        try second.service.stop()
        #expect(try prompt() == "", "service down: no greeting")
        #expect(try prompt() == "", "still down")

        let third = try IntegrationWorld(socket: .path(socket))
        #expect(try prompt() == greeting, "back once the service is")
        #expect(try prompt() == greeting)
        #expect(try descriptors() == openAtFirst, "reconnecting leaks no descriptor")
        // Closing the old connection must not have redirected the shell's own stderr.
        _ = try send(#"print -u2 -r -- stderr-still-works; print -r -- "<<>>""#)
        #expect(eventually(timeout: 2) { shell.errorText.contains("stderr-still-works") }, "zsh's stderr after reconnecting: \(shell.errorText)")
        for noise in ["_zaoan", "zsocket", "print:", "read:", "broken pipe", "bad file"] {
            #expect(!shell.errorText.lowercased().contains(noise), "zsh printed an error: \(shell.errorText)")
        }
        #expect(!shell.hasExited, "zsh survived the restarts (no SIGPIPE)")
        shell.stop()
        try third.service.stop()
    }

    @Test("zsh: a hostile title shows as typed in the prompt; $(...), backquotes, %F{...} and !! do nothing")
    func zshHostile() throws {
        let zsh = try #require(Self.zsh, "zsh not found; install the Debian package zsh")
        let world = try IntegrationWorld()
        let title = try world.addHostileRoom()
        let shown = Hostile.visible(title)
        let zdotdir = try Self.zdotdir(world, ["zaoan_request=countdown"])

        for options in ["", "setopt prompt_bang; "] {
            let result = try world.run(zsh, ["-i", "-c", options + Self.zshPromptScript], environment: ["ZDOTDIR": zdotdir])
            let prompt = Self.between(result.output) ?? ""
            IntegrationCheck.noControlBytes(result.output, "zsh's prompt (\(options))")
            #expect(prompt.hasPrefix(shown + " · 距开播 00:0"), "\(options)the prompt shows the title as typed: \(prompt.debugDescription); \(result)")
        }

        // The same check sees an injection: a naive prompt made from the answer turns %F{red}
        // into a colour (no prompt_subst here, so nothing runs).
        let naive = try world.run(zsh, ["-f", "-c", #"PROMPT="$(zaoan ask countdown) "; print -rnP -- "$PROMPT""#])
        #expect(naive.output.contains("\u{1B}[31m"), "control: a naive prompt is injectable, or this test could not tell: \(naive)")

        // Drawn by the line editor on a terminal: no colour from the title, the window title
        // left alone.
        let tmux = try Tmux("th", world: world, environment: ["ZDOTDIR": zdotdir])
        defer { tmux.kill() }
        try tmux.start(Self.zsh!, width: 300, height: 10)
        let screen = tmux.waitForScreen(escapes: true) { $0.contains("距开播 00:0") }
        #expect(try tmux.screen().contains(shown), "the drawn prompt shows the title as typed: \(screen.debugDescription)")
        #expect(!screen.contains("\u{1B}[31m"), "%F{red} in a title must not colour the prompt: \(screen.debugDescription)")
        #expect(try tmux.display("#{pane_title}") != "pwned", "an OSC 0 in a title must not set the window title")
        IntegrationCheck.nothingRan(world, "zsh")
        tmux.kill()
        try world.service.stop()
    }

    // MARK: - bash

    @Test("a stopped service (SIGSTOP) holds up no prompt: 100 zsh and 100 bash prompts each return within 100 ms, then recover")
    func stoppedService() throws {
        let zsh = try #require(Self.zsh, "zsh not found")
        let bash = try #require(Self.bash, "bash not found")
        let world = try IntegrationWorld()
        let greeting = try world.service.ask("greeting").trimmingCharacters(in: .newlines)
        let zshSnippet = Snippet.path("zsh/zaoan.zsh")
        let bashSnippet = Snippet.path("bash/zaoan.bash")
        // Each shell: one prompt while the service runs, then 100 timed prompts after the
        // test stops it (it waits for the file "stopped"), then prompts until the greeting
        // is back after SIGCONT and the back-off (zaoan_backoff: 1 s here, 10 s by default).
        let stopped = world.scratch.file("stopped")
        let resumed = world.scratch.file("resumed")
        func script(_ prompt: String, milliseconds: String) -> String {
            """
            \(prompt); print_first=$zaoan_greeting
            echo "first <$print_first>"
            while [ ! -e \(stopped) ]; do sleep 0.05; done
            worst=0
            for i in $(seq 100); do
              t0=$EPOCHREALTIME; \(prompt); t1=$EPOCHREALTIME
              \(milliseconds)
              (( ms > worst )) && worst=$ms
            done
            echo "worst $worst ms, greeting <$zaoan_greeting>"
            while [ ! -e \(resumed) ]; do sleep 0.05; done
            for i in $(seq 300); do \(prompt); [ -n "$zaoan_greeting" ] && break; sleep 0.1; done
            echo "back <$zaoan_greeting>"
            """
        }
        let zshRun = try world.stream("\(zsh) -f -c \(Hostile.shellQuoted("zmodload zsh/datetime; zaoan_backoff=1; zaoan_prompt=0; source \(zshSnippet); " + script("_zaoan_precmd", milliseconds: "ms=$(( (t1 - t0) * 1000 )); ms=${ms%%.*}")))")
        let bashRun = try world.stream("\(bash) --norc -c \(Hostile.shellQuoted("zaoan_backoff=1; zaoan_prompt=0; source \(bashSnippet); " + script("__zaoan_prompt_command", milliseconds: "ms=$(( (${t1/./} - ${t0/./}) / 1000 ))")))")
        defer { zshRun.stop(); bashRun.stop() }
        for run in [zshRun, bashRun] {
            #expect(try run.readLine(timeout: 10) == "first <\(greeting)>", "stderr: \(run.errorText)")
        }
        kill(world.service.pid, SIGSTOP)
        defer { kill(world.service.pid, SIGCONT) }
        #expect(FileManager.default.createFile(atPath: stopped, contents: nil))
        for (name, run) in [("zsh", zshRun), ("bash", bashRun)] {
            let line = try #require(try run.readLine(timeout: 60), "\(name): stderr \(run.errorText)")
            print("\(name) with the service stopped: \(line)")
            let worst = Int(line.split(separator: " ")[1]) ?? 9_999
            #expect(worst <= 100, "\(name): the slowest of 100 prompts took \(worst) ms")
            #expect(line.hasSuffix("greeting <>"), "\(name): no greeting while stopped: \(line)")
        }
        kill(world.service.pid, SIGCONT)
        #expect(FileManager.default.createFile(atPath: resumed, contents: nil))
        for (name, run) in [("zsh", zshRun), ("bash", bashRun)] {
            #expect(try run.readLine(timeout: 40) == "back <\(greeting)>", "\(name) recovers after the back-off: \(run.errorText)")
        }
        try world.service.stop()
    }

    @Test("bash: PROMPT_COMMAND fills zaoan_greeting and PS1 names it, through nc -U or zaoan ask")
    func bashPrompt() throws {
        let bash = try #require(Self.bash, "bash not found")
        let world = try IntegrationWorld()
        let greeting = try world.service.ask("greeting").trimmingCharacters(in: .newlines)
        let rc = try Self.bashrc(world)
        let script = #"false; for c in "${PROMPT_COMMAND[@]}"; do eval "$c"; done; echo "status $? client $__zaoan_client"; printf '<<%s>>\n' "${PS1@P}""#

        // As installed here: Debian's OpenBSD netcat is on PATH, so the cheaper client is used.
        let usual = try world.run(bash, ["--rcfile", rc, "-i", "-c", script])
        #expect(Self.between(usual.output)?.hasPrefix(greeting + " ") == true, "\(usual)")
        #expect(usual.output.contains("status 1"), "PROMPT_COMMAND keeps the command's exit status: \(usual)")
        #expect(usual.output.contains("client nc"), "netcat-openbsd is installed: \(usual)")
        #expect(!usual.errorOutput.contains("zaoan"), "\(usual)")

        // Each client alone on PATH. The prompt gives `zaoan ask` 90 ms to start and answer:
        // the build users run (release, runtime linked in) starts in a few; the debug build
        // the other tests drive takes far longer. On a machine loaded by the other tests even
        // that can miss (the prompt then shows nothing, by design): a few fresh shells are
        // tried, and one must show the greeting.
        let netcat = try #require(Locations.netcatOpenBSD, "netcat-openbsd not found")
        for (client, target) in [("nc", netcat), ("zaoan", Locations.releaseZaoan ?? Locations.zaoan)] {
            let bin = try world.scratch.makeDirectory("only-\(client)")
            try FileManager.default.createSymbolicLink(atPath: bin + "/" + client, withDestinationPath: target)
            var result = try world.run(bash, ["--rcfile", rc, "-i", "-c", script], environment: ["PATH": bin])
            for _ in 0..<5 where Self.between(result.output)?.hasPrefix(greeting + " ") != true {
                result = try world.run(bash, ["--rcfile", rc, "-i", "-c", script], environment: ["PATH": bin])
            }
            #expect(result.output.contains("client \(client)"), "\(result)")
            #expect(Self.between(result.output)?.hasPrefix(greeting + " ") == true, "through \(client): \(result)")
            #expect(!result.errorOutput.contains("zaoan"), "\(result)")
        }

        // Service down: no greeting, no noise.
        try world.service.stop()
        let down = try world.run(bash, ["--rcfile", rc, "-i", "-c", script])
        let downPrompt = Self.between(down.output)
        #expect(downPrompt != nil && downPrompt?.contains(greeting) == false, "no greeting while the service is down: \(down)")
        #expect(!down.errorOutput.contains("zaoan"), "nothing printed while the service is down: \(down)")
    }

    @Test("bash: a hostile title shows as typed in PS1; \\[\\e[31m\\], $(...) and backquotes do nothing")
    func bashHostile() throws {
        let bash = try #require(Self.bash, "bash not found")
        let world = try IntegrationWorld()
        let title = try world.addHostileRoom()
        let shown = Hostile.visible(title)
        let rc = try Self.bashrc(world, ["zaoan_request=countdown"])
        let script = #"for c in "${PROMPT_COMMAND[@]}"; do eval "$c"; done; printf '<<%s>>\n' "${PS1@P}""#
        let result = try world.run(bash, ["--rcfile", rc, "-i", "-c", script])
        let prompt = Self.between(result.output) ?? ""
        IntegrationCheck.noControlBytes(result.output, "bash's prompt")
        #expect(prompt.hasPrefix(shown + " · 距开播 00:0"), "the prompt shows the title as typed: \(prompt.debugDescription); \(result)")

        // Drawn by readline on a terminal.
        let tmux = try Tmux("tb", world: world)
        defer { tmux.kill() }
        try tmux.start("\(bash) --rcfile \(rc) -i", width: 300, height: 10)
        let screen = tmux.waitForScreen(escapes: true) { $0.contains("距开播 00:0") }
        #expect(try tmux.screen().contains(shown), "the drawn prompt shows the title as typed: \(screen.debugDescription)")
        #expect(!screen.contains("\u{1B}[31m"), "\\e[31m in a title must not colour the prompt: \(screen.debugDescription)")
        #expect(try tmux.display("#{pane_title}") != "pwned", "an OSC 0 in a title must not set the window title")
        IntegrationCheck.nothingRan(world, "bash")
        tmux.kill()
        try world.service.stop()
    }
}
