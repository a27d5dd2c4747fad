import Glibc
import ZaoanClient
import ZaoanCommandLine
import ZaoanSystem
import ZaoanText

/// `zaoan ask [--format FMT] [--timeout DURATION] REQUEST`: one request, one answer, within
/// the deadline (default 5 s) from connecting to the last byte, and at most 1 MiB of it.
/// The answer goes to stdout, an `ERR` answer to stderr with exit 1, filtered either way:
/// no control byte from the other end of the socket reaches the terminal.
struct AskCommand {
    let options: ClientOptions
    let environment: [String: String]

    func run() -> Never {
        let answer = Self.answer(options, environment: environment)
        _ = Posix.writeAll(1, ClientOutput.text(answer, format: options.format ?? .plain))
        exit(0)
    }

    /// The service's whole answer to the request line, within `--timeout`. An error to reach
    /// the service ends the program with its status; an `ERR` answer goes to stderr, exit 1.
    static func answer(_ options: ClientOptions, environment: [String: String]) -> [UInt8] {
        let answer: [UInt8]
        do {
            let path = try ServiceSocket.locate(explicit: options.socket, environment: environment)
            let deadline = Deadline(after: options.timeout)
            let connection = try ServiceConnection(path: path, deadline: deadline)
            try connection.send(options.requestLine, deadline: deadline)
            connection.finishSending()
            answer = try connection.readToEnd(deadline: deadline)
        } catch {
            fail(error.description, status: error.exitStatus)
        }
        if answer.starts(with: Array("ERR ".utf8)) {
            _ = Posix.writeAll(2, ClientOutput.text(answer, format: .plain))
            exit(1)
        }
        return answer
    }
}
