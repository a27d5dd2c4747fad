import Foundation
import Glibc
import ZaoanClient
import ZaoanCore
import ZaoanServer

let environment = ProcessInfo.processInfo.environment

func fail(_ message: String, status: Int32) -> Never {
    printError(message)
    exit(status)
}

let command: Command
do {
    command = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail(error.description, status: 64)  // EX_USAGE
}

switch command {
case .help:
    print(Options.usage, terminator: "")
case .version:
    print(Version.describe(commit: buildCommit))
case .checkConfig(let path):
    let source = ConfigSource(path: path, environment: environment)
    do {
        let settings = try source.load()
        print(SafeText.visible("\(source.path): ok (city \(settings.city), zone \(settings.zone.identifier), language \(settings.language.rawValue))"))
    } catch {
        fail(error.description, status: 1)
    }
case .ask(let options):
    AskCommand(options: options, environment: environment).run()
case .watch(let options):
    do {
        WatchCommand(options: options, socketPath: try ServiceSocket.locate(explicit: options.socket, environment: environment)).run()
    } catch {
        fail(error.description, status: error.exitStatus)
    }
case .bar(let options):
    let config: BarConfig
    do {
        config = try BarConfig.load(path: options.config, environment: environment)
    } catch {
        fail(error.description, status: 78)  // EX_CONFIG
    }
    do {
        BarCommand(config: config, socketPath: try ServiceSocket.locate(explicit: options.socket, environment: environment)).run()
    } catch {
        fail(error.description, status: error.exitStatus)
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
        let server = try Server(options: serverOptions, settings: settings)
        exit(try server.run())
    } catch {
        Log.error("\(error)")
        exit(1)
    }
}
