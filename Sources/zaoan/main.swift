import Glibc
import ZaoanClient
import ZaoanCommandLine
import ZaoanProtocol
import ZaoanSystem

// The client: ask, watch, bar, click, join. Glibc only (no Foundation, no ICU), so a prompt or a bar
// pays for a small process; `serve` and `check-config` become `zaoan-server`.

let command: Command
do {
    command = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail(error.description, status: 64)  // EX_USAGE
}

switch command {
case .server:
    ServerHandOff.exec()
case .help:
    print(Options.usage, terminator: "")
case .version:
    print(Version.describe(commit: buildCommit))
case .ask(let options):
    AskCommand(options: options, environment: ProcessEnvironment.current()).run()
case .watch(let options):
    do {
        let socketPath = try ServiceSocket.locate(explicit: options.socket, environment: ProcessEnvironment.current())
        WatchCommand(options: options, socketPath: socketPath, environment: ProcessEnvironment.current()).run()
    } catch {
        fail(error.description, status: error.exitStatus)
    }
case .click(let options):
    ClickCommand(options: options, environment: ProcessEnvironment.current()).run()
case .cal(let options):
    CalCommand(options: options, environment: ProcessEnvironment.current()).run()
case .join(let options):
    JoinCommand(options: options, environment: ProcessEnvironment.current()).run()
case .bar(let options):
    let environment = ProcessEnvironment.current()
    let config: BarConfig
    do {
        config = try BarConfig.load(path: options.config, environment: environment)
    } catch {
        fail(error.description, status: 78)  // EX_CONFIG
    }
    do {
        BarCommand(config: config, socketPath: try ServiceSocket.locate(explicit: options.socket, environment: environment),
                   retryAfter: options.retryAfter).run()
    } catch {
        fail(error.description, status: error.exitStatus)
    }
}
