import CLinux
import Foundation
import Glibc
import ZaoanCommandLine
import ZaoanCore
import ZaoanServer

// The service: `zaoan serve` and `zaoan check-config`, which the small client `zaoan`
// hands over with execv (same pid, same argv), so messages still say `zaoan`.

// The process is `zaoan` to `ps -C`, `pgrep -x`, `killall` and the journal's `_COMM` too,
// as before the service had a binary of its own (argv is `zaoan serve ...` already).
_ = zaoan_set_process_name("zaoan")

let environment = ProcessInfo.processInfo.environment

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
    let source = ConfigSource(path: path, environment: environment)
    do {
        let settings = try source.load()
        print(SafeText.visible("\(source.path): ok (city \(settings.city), zone \(settings.zone.identifier), language \(settings.language.rawValue))"))
    } catch {
        fail(error.description, status: 1)
    }
case .serve(let options):
    // The service takes its signals through the event loop (signalfd): block them before
    // anything can start a thread, so no other thread takes them. (The clients keep the
    // default actions: Ctrl-C just ends `zaoan ask`.)
    blockServiceSignals()
    Log.ignoreBrokenPipes()
    Log.verbose = options.verbose
    let source = ConfigSource(path: options.config, overrides: options.overrides, environment: environment)
    let settings: Settings
    do {
        settings = try source.load()
    } catch {
        Log.error("\(error); fix it and start again (zaoan check-config checks a file)", event: .configRejected)
        exit(78)  // EX_CONFIG
    }
    do {
        var serverOptions = Server.Options(socketPath: options.socket, config: source, environment: environment,
                                           exitIdleTime: options.exitIdleTime)
        serverOptions.versionText = Version.describe(commit: buildCommit)
        exit(try Server.serve(options: serverOptions, settings: settings))
    } catch {
        Log.error("\(error)")
        exit(1)
    }
}
