import ZaoanCore

/// `reload` and SIGHUP, with the file read off the loop: reading, parsing and resolving a
/// config is work of the file's size (a 1 MiB file of cities took 60–130 ms of the loop), so
/// a thread of its own does it (`BackgroundWorker`) and only the settings made are applied
/// on the loop. An asker waits for the answer of a read that began after it asked: one that
/// asks while a read is in progress is answered by the next read, which sees the file as it
/// is then. A session that asked holds its later lines meanwhile (`Session` answers in order).
final class SettingsReloader {
    /// Who asked for a reload: a client's session (answered) or SIGHUP (logged only).
    enum Asker {
        case session(Session)
        case signal
    }

    private var worker: BackgroundWorker<ConfigSource, Result<Settings, ConfigError>>!
    /// Answered by the read in progress.
    private var reading: [Asker] = []
    /// Asked while a read was in progress: answered by the next one.
    private var waiting: [Asker] = []
    private let source: ConfigSource

    /// Called on the loop's thread as each read begins (systemd hears RELOADING=1).
    private let began: () -> Void

    /// `apply` puts good settings in force (or says why the file was refused) on the loop's
    /// thread and gives the answer every asker of that read gets; `began` is told as each
    /// read begins, so the pair brackets a reload.
    init(loop: EventLoop, source: ConfigSource, began: @escaping () -> Void,
         apply: @escaping (Result<Settings, ConfigError>) -> Reply) throws(SystemError) {
        self.source = source
        self.began = began
        worker = try BackgroundWorker(loop: loop, purpose: "reading the config", perform: { source in
            Result { () throws(ConfigError) in try source.load() }
        }, finished: { [unowned self] result in
            let reply = apply(result)
            let answered = reading
            reading = []
            for case .session(let session) in answered { session.changeAnswered(reply) }
            if !waiting.isEmpty { start() }
        })
    }

    /// Reads the config again; `asker` is answered once it is read and applied.
    func reload(for asker: Asker) {
        waiting.append(asker)
        if reading.isEmpty { start() }
    }

    /// Readers in progress and waiting, for `stats` and tests.
    var pending: Int { reading.count + waiting.count }

    private func start() {
        reading = waiting
        waiting = []
        began()
        worker.submit(source)
    }

    /// Lets a read in progress finish (its askers are not answered), then ends the thread.
    func stop() { worker.stop() }
}
