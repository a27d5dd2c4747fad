import Foundation
import Glibc
import Testing
import ZaoanServer

/// Logging: structured journal entries when stderr is the journal (JOURNAL_STREAM names
/// it), `<N>`-prefixed lines otherwise; quiet unless something happens.
@Suite("systemd journal logging", .serialized)  // one private journald at a time
struct SystemdJournalTests {
    /// Values of JOURNAL_STREAM that do not name zaoan's stderr.
    static var foreignStreams: [String] {
        var null = stat()
        stat("/dev/null", &null)
        return ["0:0", "not-a-stream", "\(null.st_dev):\(null.st_ino)"]
    }

    @Test("JOURNAL_STREAM that does not match stderr: plain <N> lines, one at start, one per error, one at stop",
          arguments: foreignStreams)
    func plainLines(journalStream: String) throws {
        var configuration = TestService.Configuration()
        configuration.environment["JOURNAL_STREAM"] = journalStream
        configuration.config = "{}"
        let service = try TestService.start(configuration)
        for _ in 0..<20 { #expect(try service.ask("ping") == "pong\n") }
        try service.directory.write("config/zaoan/config.json", #"{"idle_timeout": "soon"}"#)
        #expect(try service.ask("reload").hasPrefix("ERR bad-config"))
        try service.stop()

        let lines = service.stderrText.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "quiet by default: start, the rejected reload, stop; got:\n\(lines.joined(separator: "\n"))")
        #expect(lines.first?.hasPrefix("<6>zaoan: serving on ") == true, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("<3>zaoan: ") && $0.contains("idle_timeout") }, "\(lines)")
        #expect(lines.last?.hasPrefix("<6>zaoan: stopped") == true, "\(lines)")
    }

    @Test("JOURNAL_STREAM matching stderr but no journald listening: the lines still reach stderr",
          .enabled(if: !FileManager.default.fileExists(atPath: "/run/systemd/journal/socket"),
                   "a journald runs here; this case would write into the real journal"))
    func journalUnreachable() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var environment = try TestService.isolatedEnvironment(in: directory)
        let logPath = directory.file("log")
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        var info = stat()
        try #require(stat(logPath, &info) == 0)
        environment["JOURNAL_STREAM"] = "\(info.st_dev):\(info.st_ino)"
        let socketPath = directory.file("s")
        let process = try SpawnedProcess([Locations.zaoan, "serve", "--socket", socketPath], environment: environment, outputPath: logPath)
        #expect(eventually(timeout: 10) { (try? ask(socketPath, "ping", timeout: 1)) == "pong\n" })
        process.signal(SIGTERM)
        #expect(process.wait(timeout: 5) == .exited(0))
        let log = String(decoding: FileManager.default.contents(atPath: logPath) ?? Data(), as: UTF8.self)
        // libsystemd's sd_journal_sendv returns 0, not an error, when the journal socket
        // does not exist (it ignores ENOENT); Log checks for the socket and keeps to stderr.
        // Seen in practice: a user manager gives a service with ProtectProc= a private /run.
        #expect(log.contains("zaoan: serving on") && log.contains("zaoan: stopped"), "\(log)")
    }

    /// Runs a private journald in a mount namespace of its own and two zaoan services
    /// logging to it; prints their entries as JSON lines. Exit 77: cannot run here.
    static let journalScript = journalSetup + scenarioScript

    /// A private journald in a mount namespace of its own, an environment that never
    /// touches the real user's files, and `wait_for_socket`; the scenario follows.
    static let journalSetup = #"""
        set -euo pipefail
        zaoan=$1
        work=$2
        journald=
        for candidate in /usr/lib/systemd/systemd-journald /lib/systemd/systemd-journald; do
            [[ -x $candidate ]] && journald=$candidate && break
        done
        [[ -n $journald ]] || { echo "no systemd-journald" >&2; exit 77; }
        for tool in systemd-cat journalctl setpriv; do
            command -v $tool >/dev/null || { echo "$tool missing" >&2; exit 77; }
        done

        # tmpfs over /run/systemd/journal and /run/log hide the host's journal (if any) and
        # vanish with this namespace; directories made for them are removed again.
        made=()
        cleanup() {
            [[ -n ${journald_pid:-} ]] && kill "$journald_pid" 2>/dev/null && wait "$journald_pid" 2>/dev/null
            umount /etc/systemd/journald.conf 2>/dev/null || true
            umount /run/systemd/journal 2>/dev/null || true
            umount /run/log 2>/dev/null || true
            for dir in "${made[@]}"; do rmdir "$dir" 2>/dev/null || true; done
        }
        trap cleanup EXIT
        for dir in /run/systemd/journal /run/log; do
            [[ -d $dir ]] || { mkdir "$dir" && made+=("$dir"); }
            mount -t tmpfs -o mode=0755 tmpfs "$dir" || exit 77
        done
        mkdir -p /run/log/journal
        # Only what the services send: no kernel log, no forwarding, memory only.
        if [[ -f /etc/systemd/journald.conf ]]; then
            printf '[Journal]\nStorage=volatile\nReadKMsg=no\nForwardToSyslog=no\nForwardToKMsg=no\nForwardToConsole=no\nForwardToWall=no\nAudit=no\n' >"$work/journald.conf"
            mount --bind "$work/journald.conf" /etc/systemd/journald.conf
        fi
        "$journald" >"$work/journald.log" 2>&1 &
        journald_pid=$!
        for _ in $(seq 100); do [[ -S /run/systemd/journal/stdout ]] && break; sleep 0.05; done
        [[ -S /run/systemd/journal/stdout ]] || { echo "journald did not start: $(cat "$work/journald.log")" >&2; exit 77; }

        # Never the real user's config or state.
        chmod 0755 "$work"
        mkdir -p "$work/home" "$work/config" "$work/state"
        export HOME="$work/home" XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state" LANG=C.UTF-8 TZ=UTC
        unset XDG_RUNTIME_DIR NOTIFY_SOCKET LISTEN_FDS LISTEN_PID LISTEN_FDNAMES WATCHDOG_USEC WATCHDOG_PID JOURNAL_STREAM
        wait_for_socket() {
            for _ in $(seq 200); do
                "$zaoan" ask --socket "$1" ping >/dev/null 2>&1 && return 0
                sleep 0.05
            done
            echo "zaoan did not answer on $1" >&2
            return 1
        }

        """#

    static let scenarioScript = #"""

        # 1. stderr is a journal stream and JOURNAL_STREAM names it, as under systemd. The state
        #    file is corrupt (moved aside: a state problem); a client running as uid 65534 sends
        #    reload, which only the service's user and root may send; then the owner reloads a
        #    broken config (rejected).
        mkdir -p "$work/state/zaoan" "$work/config/zaoan"
        chmod 0700 "$work/state/zaoan"
        echo 'not json' >"$work/state/zaoan/state.json"
        systemd-cat -t zaoan-native bash -c 'export JOURNAL_STREAM=$(stat -L -c %d:%i /proc/self/fd/2); exec "$0" serve --socket "$1"' \
            "$zaoan" "$work/native.sock" &
        native=$!
        wait_for_socket "$work/native.sock"
        chmod 0666 "$work/native.sock"
        setpriv --reuid=65534 --regid=65534 --clear-groups "$zaoan" ask --socket "$work/native.sock" reload >"$work/refused.out" 2>&1 || true
        echo '{' >"$work/config/zaoan/config.json"
        "$zaoan" ask --socket "$work/native.sock" reload >"$work/rejected.out" 2>&1 || true
        rm "$work/config/zaoan/config.json"
        kill -TERM "$native"
        wait "$native" || true

        # 2. stderr is a journal stream, JOURNAL_STREAM unset (systemd-cat): <N> lines.
        systemd-cat -t zaoan-stream --level-prefix=true "$zaoan" serve --socket "$work/stream.sock" &
        stream=$!
        wait_for_socket "$work/stream.sock"
        kill -TERM "$stream"
        wait "$stream" || true

        sleep 0.3
        journalctl --directory=/run/log/journal --no-pager -o json \
            --output-fields=MESSAGE,PRIORITY,MESSAGE_ID,SYSLOG_IDENTIFIER,CLIENT_PID,CLIENT_UID,_TRANSPORT _COMM=zaoan
        """#

    /// Runs `script` (`journal.sh ZAOAN WORK`) in a private mount namespace with a journald of
    /// its own; cancels the test where none can run. Returns every entry journalctl printed,
    /// zaoan's own (SYSLOG_IDENTIFIER=zaoan), and the work folder (in `directory`, which the
    /// caller removes once it has read what the script left there).
    static func runUnderJournald(_ script: String, in directory: TemporaryDirectory) throws -> (entries: [[String: String]], native: [[String: String]], work: String) {
        guard geteuid() == 0, let unshare = Locations.tool("unshare") else {
            try Test.cancel("needs root and unshare(1) to run a private journald")
        }
        chmod(directory.path, 0o755)  // the client running as uid 65534 must reach the socket
        try directory.write("journal.sh", script)
        let work = try directory.makeDirectory("work", mode: 0o755)
        let result = try Tool.run(unshare, ["--mount", "--propagation", "private", "bash", directory.file("journal.sh"), Locations.zaoan, work],
                                  environment: Tool.baseEnvironment(home: work), timeout: 60, scratch: directory)
        if result.status == 77 || (result.status != 0 && result.errorOutput.contains("unshare failed")) {
            try Test.cancel("no private journald here: \(result.errorOutput)")
        }
        try #require(result.status == 0, "\(result)")
        let entries: [[String: String]] = result.output.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.map { $0.compactMapValues { $0 as? String } }
        return (entries, entries.filter { $0["SYSLOG_IDENTIFIER"] == "zaoan" }, work)
    }

    @Test("under a real journald: structured entries with MESSAGE_ID, PRIORITY and the refused client's pid/uid; <N> lines filed at their level")
    func realJournal() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (entries, native, _) = try Self.runUnderJournald(Self.journalScript, in: directory)
        let started = native.first { $0["MESSAGE_ID"] == Log.Event.started.rawValue }
        let refused = native.first { $0["MESSAGE_ID"] == Log.Event.refused.rawValue }
        let stopped = native.first { $0["MESSAGE_ID"] == Log.Event.stopped.rawValue }
        let rejected = native.first { $0["MESSAGE_ID"] == Log.Event.configRejected.rawValue }
        let stateProblem = native.first { $0["MESSAGE_ID"] == Log.Event.stateProblem.rawValue }
        #expect(rejected?["PRIORITY"] == "3" && rejected?["MESSAGE"]?.contains("reload rejected") == true, "\(String(describing: rejected)); all: \(entries)")
        #expect(stateProblem?["PRIORITY"] == "3" && stateProblem?["MESSAGE"]?.contains("moved it to") == true, "\(String(describing: stateProblem))")
        #expect(started?["PRIORITY"] == "6" && started?["_TRANSPORT"] == "journal" && started?["MESSAGE"]?.hasPrefix("serving on") == true,
                "\(String(describing: started)); all: \(entries)")
        #expect(refused?["PRIORITY"] == "5" && refused?["CLIENT_UID"] == "65534" && Int(refused?["CLIENT_PID"] ?? "") != nil,
                "\(String(describing: refused)); all: \(entries)")
        #expect(stopped?["PRIORITY"] == "6" && stopped?["_TRANSPORT"] == "journal", "\(String(describing: stopped))")
        #expect(native.count == 5, "quiet: the state problem, start, the refusal, the rejected reload, stop; got \(native.map { $0["MESSAGE"] ?? "" })")
        // Nothing of the native instance went through its stderr stream as well.
        #expect(!entries.contains { $0["SYSLOG_IDENTIFIER"] == "zaoan-native" }, "\(entries)")

        let stream = entries.filter { $0["SYSLOG_IDENTIFIER"] == "zaoan-stream" }
        #expect(stream.count == 2 && stream.allSatisfy { $0["_TRANSPORT"] == "stdout" && $0["PRIORITY"] == "6" && $0["MESSAGE"]?.hasPrefix("zaoan: ") == true },
                "<6> lines filed at priority 6 with the prefix taken off: \(stream)")
        print("journal: \(native.count) native entries (\(native.compactMap { $0["MESSAGE_ID"].map { String($0.prefix(8)) } }.joined(separator: ", "))), refused client uid \(refused?["CLIENT_UID"] ?? "?"); \(stream.count) stream lines at priority \(stream.first?["PRIORITY"] ?? "?")")
    }

    /// A config with a typo, served under a real journald: one warning per problem with
    /// MESSAGE_ID rejected-config and the place in fields of its own, then the start.
    static let configScenario = #"""
        mkdir -p "$work/config/zaoan"
        printf '{\n  // the typo is on line 3\n  "soon_treshold": 60,\n  "language": "en"\n}\n' >"$work/config/zaoan/config.json"
        systemd-cat -t zaoan-native bash -c 'export JOURNAL_STREAM=$(stat -L -c %d:%i /proc/self/fd/2); exec "$0" serve --socket "$1"' \
            "$zaoan" "$work/native.sock" &
        native=$!
        wait_for_socket "$work/native.sock"
        "$zaoan" ask --socket "$work/native.sock" stats >"$work/stats.out"
        kill -TERM "$native"
        wait "$native" || true
        sleep 0.3
        journalctl --directory=/run/log/journal --no-pager -o json \
            --output-fields=MESSAGE,PRIORITY,MESSAGE_ID,SYSLOG_IDENTIFIER,CONFIG_FILE,CONFIG_LINE,CONFIG_COLUMN,CONFIG_KEY _COMM=zaoan
        """#

    @Test("under a real journald: a config problem at start is a warning with MESSAGE_ID rejected-config, the file, line, column and key")
    func configProblemInTheJournal() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (_, native, work) = try Self.runUnderJournald(Self.journalSetup + Self.configScenario, in: directory)
        let rejected = native.filter { $0["MESSAGE_ID"] == Log.Event.configRejected.rawValue }
        let file = work + "/config/zaoan/config.json"
        try #require(rejected.count == 1, "one problem, one entry: \(native)")
        #expect(rejected[0]["PRIORITY"] == "4", "a warning: the service serves: \(rejected[0])")
        #expect(rejected[0]["CONFIG_FILE"] == file && rejected[0]["CONFIG_LINE"] == "3" && rejected[0]["CONFIG_COLUMN"] == "3"
                && rejected[0]["CONFIG_KEY"] == "soon_treshold", "\(rejected[0])")
        #expect(rejected[0]["MESSAGE"] == "\(file):3:3: config key 'soon_treshold': unknown key; did you mean 'soon_threshold'? (ignored); serving with the rest (zaoan check-config checks the file)",
                "\(rejected[0])")
        let started = native.first { $0["MESSAGE_ID"] == Log.Event.started.rawValue }
        #expect(started?["MESSAGE"]?.contains("language en") == true && started?["MESSAGE"]?.contains("1 config problem") == true, "\(String(describing: started))")
        let stats = String(decoding: FileManager.default.contents(atPath: work + "/stats.out") ?? Data(), as: UTF8.self)
        #expect(stats.contains("config_problem: \(file):3:3: config key 'soon_treshold'"), "\(stats)")
        print("journal: the config problem logged as MESSAGE_ID \(rejected[0]["MESSAGE_ID"] ?? "?") at priority \(rejected[0]["PRIORITY"] ?? "?"), CONFIG_LINE=\(rejected[0]["CONFIG_LINE"] ?? "?") CONFIG_COLUMN=\(rejected[0]["CONFIG_COLUMN"] ?? "?")")
    }
}
