import CLinux
import CSystemd
import Glibc
import ZaoanCore

/// One service per state directory (`StateLock`): the second one refuses to serve.
///
/// Started by hand, it says who holds the directory and exits. Started by systemd for
/// `zaoan.socket`, it must also leave the socket usable: connections are queued on it, and
/// a service that exits leaving them there is started again at once, until systemd fails
/// the socket (TriggerLimitBurst=, StartLimitBurst=). So it answers every queued connection
/// with `ERR busy` naming the other instance, keeps answering until none has come for
/// `refusalQuietSeconds` (starts are then at least that far apart, below the 5 in 10 s of
/// StartLimitBurst=), and exits with `otherInstanceExitStatus`, which both units list in
/// RestartPreventExitStatus=. The socket stays listening, and the first connection after
/// the other instance has stopped starts a zaoan that serves.
extension Server {
    /// EX_TEMPFAIL (sysexits.h): another zaoan holds the state directory; try again once it
    /// has stopped. Documented in zaoan(1); RestartPreventExitStatus=75 in both units.
    public static let otherInstanceExitStatus: Int32 = 75
    /// How long a refusing instance keeps answering after the last connection.
    static let refusalQuietSeconds = 3.0

    /// Takes the state directory and serves until stopped (`run`), or refuses (see above).
    /// Returns the process exit status.
    /// - Parameter config: the settings, and what of the file they could not use.
    public static func serve(options: Options, config: ConfigSource.Loaded) throws(SystemError) -> Int32 {
        switch try StateStore(directory: options.stateDirectory).lock() {
        case .locked(let lock):
            let server = try Server(options: options, settings: config.settings)
            server.stateLock = lock
            server.configProblems = config.problems
            return try server.run()
        case .heldBy(let holder):
            return try refuse(because: holder)
        }
    }

    private static func refuse(because holder: StateLock.Holder) throws(SystemError) -> Int32 {
        let conflict = "\(holder) already uses the state directory \(holder.directory); two would overwrite each other's live rooms"
        let activated = try Systemd.activatedSockets()
        guard let socket = Systemd.pick(activated) else {
            let kill = holder.pid.map { ", or kill \($0)" } ?? ""
            Log.error("\(conflict). Stop it first (systemctl --user stop zaoan.socket zaoan.service\(kill)), or give this one a state directory of its own (XDG_STATE_HOME); exiting with status \(otherInstanceExitStatus)",
                      event: .stateProblem)
            return otherInstanceExitStatus
        }
        Log.error("\(conflict). Answering the connections queued on the socket with ERR busy, then exiting with status \(otherInstanceExitStatus), which systemd does not restart (RestartPreventExitStatus=); the socket keeps listening and starts zaoan again for the first connection after the other one stops",
                  event: .stateProblem)
        let line = Reply.error(ProtocolError(.busy, "\(holder) holds the live rooms in \(holder.directory), so the zaoan started for this socket exits; stop that one, and this socket serves again")).bytes
        // No event loop runs here: SIGTERM from `systemctl stop` ends the process at once.
        Signals.unblock(serviceSignals)
        let answered = answerQueued(on: socket.fd, with: line, directory: holder.directory)
        Log.info("answered \(Log.counted(answered, "connection")) with ERR busy; exiting with status \(otherInstanceExitStatus)")
        return otherInstanceExitStatus
    }

    /// Answers each connection on the listening socket `fd` with `line` and closes it, until
    /// none has come for `refusalQuietSeconds` or the lock is free. Accepts one connection per
    /// poll, so the socket systemd handed over stays as it is (blocking, for the next zaoan).
    private static func answerQueued(on fd: Int32, with line: [UInt8], directory: String) -> Int {
        var answered = 0
        var lastConnection = Posix.monotonicSeconds()
        while Posix.monotonicSeconds() - lastConnection < refusalQuietSeconds {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard let ready = try? syscall("poll", { poll(&entry, 1, 500) }) else { break }  // EINTR is retried
            guard ready > 0 else {
                if StateLock.isFree(in: directory) { break }  // the other stopped: let a new zaoan serve
                continue
            }
            // Gone meanwhile (ECONNABORTED), or taken by another: poll again.
            guard case .value(let client)? = try? nonBlockingSyscall("accept", { zaoan_accept_nonblocking(fd) }) else { continue }
            answer(Descriptor(taking: client), with: line)
            answered += 1
            lastConnection = Posix.monotonicSeconds()
        }
        return answered
    }

    /// Sends `line`, ends the output, and reads what the client sent until it closes (within
    /// a second): a Unix socket closed with unread input resets the peer, whose read of the
    /// line would then fail with ECONNRESET.
    private static func answer(_ connection: consuming Descriptor, with line: [UInt8]) {
        let client = connection.rawValue
        // A few hundred bytes into an empty socket buffer: a client that cannot take them
        // loses the explanation, not the service.
        _ = line.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        shutdown(client, Int32(SHUT_WR))
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Posix.monotonicSeconds() + 1
        var drained = 0
        while drained < 64 * 1024, Posix.monotonicSeconds() < deadline {
            var entry = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) > 0 else { continue }
            let received = try? nonBlockingSyscall("recv") {  // an error: the client is gone
                buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            }
            switch received {
            case .value(let count) where count > 0: drained += count
            case .wouldBlock: continue
            case .value, nil: return  // closed: done
            }
        }
    }
}
