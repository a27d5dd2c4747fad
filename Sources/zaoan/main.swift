import Foundation
import Glibc
import ZaoanCore
import ZaoanServer

let environment = ProcessInfo.processInfo.environment

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data(("zaoan: " + message + "\n").utf8))
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
        print("\(source.path): ok (city \(settings.city), zone \(settings.zone.identifier), language \(settings.language.rawValue))")
    } catch {
        fail(error.description, status: 1)
    }
case .ask(let options):
    let path = SocketPath.resolve(explicit: options.socket, environment: environment).path
    do {
        let answer = try Client.ask(options.requestLine, socketPath: path)
        if answer.starts(with: Array("ERR ".utf8)) {
            FileHandle.standardError.write(Data(answer))
            exit(1)
        }
        FileHandle.standardOutput.write(Data(answer))
        exit(0)
    } catch {
        fail(error.description, status: 2)
    }
case .watch(let options):
    WatchCommand(options: options, socketPath: SocketPath.resolve(explicit: options.socket, environment: environment).path).run()
case .bar(let options):
    let config: BarConfig
    do {
        config = try BarConfig.load(path: options.config, environment: environment)
    } catch {
        fail(error.description, status: 78)  // EX_CONFIG
    }
    BarCommand(config: config, socketPath: SocketPath.resolve(explicit: options.socket, environment: environment).path).run()
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
