import CLinux
import Glibc
import ZaoanCommandLine
import ZaoanCore
import ZaoanServer

// The service: `zaoan serve` and `zaoan check-config`, which the small client `zaoan`
// hands over with execv (same pid, same argv), so messages still say `zaoan`.

// The process is `zaoan` to `ps -C`, `pgrep -x`, `killall` and the journal's `_COMM` too,
// as before the service had a binary of its own (argv is `zaoan serve ...` already).
_ = zaoan_set_process_name("zaoan")

let environment = ProcessEnvironment.current()

let command: ServerCommand
do {
    command = try ServerOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail(error.description, status: 64)  // EX_USAGE
}

switch command {
case .version:
    print(Version.describe(commit: buildCommit))
case .calendarReader:
    exit(ReaderChild.run())
case .checkConfig(let path):
    // Strict, unlike serve: every problem is printed, and any one fails the check.
    let source = ConfigSource(path: path, environment: environment, gazetteer: GazetteerFile())
    let loaded = source.read()
    for warning in source.missingCalendars(loaded) {
        printError("warning: \(warning)")
    }
    if !loaded.problems.isEmpty {
        // Each with what the service does instead: a bad value costs only itself.
        for problem in loaded.problems { printError(problem.report) }
        let count = loaded.problems.count
        fail("\(source.path): \(count) problem\(count == 1 ? "" : "s"); zaoan serve would start all the same, setting aside only what \(count == 1 ? "it names" : "each names"), as said in brackets", status: 1)
    }
    let settings = loaded.settings
    print(SafeText.visible("\(source.path): ok (city \(settings.city), zone \(settings.zone.identifier), language \(settings.language.rawValue))"))
case .serve(let options):
    // The service takes its signals through the event loop (signalfd): block them before
    // anything can start a thread, so no other thread takes them. (The clients keep the
    // default actions: Ctrl-C just ends `zaoan ask`.)
    blockServiceSignals()
    Log.ignoreBrokenPipes()
    Log.verbose = options.verbose
    // A config problem never stops the service (under socket activation, exiting would
    // take the socket down after a few restarts): it serves with what it can use, and the
    // log, `systemctl status` and `stats` say what it left aside.
    let source = ConfigSource(path: options.config, overrides: options.overrides, environment: environment, gazetteer: GazetteerFile())
    let loaded = source.read()
    do {
        var serverOptions = Server.Options(socketPath: options.socket, config: source, environment: environment,
                                           exitIdleTime: options.exitIdleTime)
        serverOptions.versionText = Version.describe(commit: buildCommit)
        exit(try Server.serve(options: serverOptions, config: loaded))
    } catch {
        Log.error("\(error)")
        exit(1)
    }
}
