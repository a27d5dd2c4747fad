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
        let answer: [UInt8]
        let path: String
        do {
            path = try ServiceSocket.locate(explicit: options.socket, environment: environment)
            let deadline = Deadline(after: options.timeout)
            let connection = try ServiceConnection(path: path, deadline: deadline)
            try connection.send(options.requestLine, deadline: deadline)
            connection.finishSending()
            answer = try connection.readToEnd(deadline: deadline)
        } catch {
            fail(error.description, status: error.exitStatus)
        }
        if answer.starts(with: Array("ERR ".utf8)) {
            write(2, ClientOutput.text(answer, format: .plain))
            exit(1)
        }
        write(1, ClientOutput.text(answer, format: options.format ?? .plain))
        exit(0)
    }

    private func write(_ fd: Int32, _ text: String) {
        _ = Posix.writeAll(fd, text)
    }
}
