import Glibc
import ZaoanCore

/// `event add` and `event rm` on disk, on a thread of its own (`BackgroundWorker`), as the
/// state file is saved (`StateSaver`): a write, its fsync, a rename and the folder's fsync
/// take milliseconds, and seconds on a busy disk or a network file system, and no client
/// waits for them. One write at a time, in the order asked; each asker is answered when its
/// file is on disk (or refused), and holds its next lines until then, as for `reload`.
///
/// A new file appears whole or not at all (`DurableFile.replace`): it is written under a
/// temporary name that is not an `.ics` file (`.zaoan-….tmp`, which neither zaoan's reader,
/// khal nor vdirsyncer take), then renamed to `UID.ics` and the folder synced. The calendar's folder is opened the way the reader
/// opens it (`TrustedPath`: no link or folder of another account on the way) and must
/// belong to the service's user and be writable by no one else. The existing calendar watch
/// sees the rename and reads the folder again, so the event shows within about a second.
final class CalendarWriter {
    private struct Job: Sendable {
        let write: CalendarWrite
    }

    private var worker: BackgroundWorker<Job, Reply>!
    private var inFlight: Session?
    private var waiting: [(CalendarWrite, Session)] = []

    init(loop: EventLoop) throws(SystemError) {
        worker = try BackgroundWorker(loop: loop, purpose: "writing calendar events", perform: { job in
            Self.perform(job.write)
        }, finished: { [unowned self] reply in
            let session = inFlight
            inFlight = nil
            session?.changeAnswered(reply)
            startNext()
        })
    }

    /// Carries out `write` after those asked before; `session` is answered once it is done.
    func write(_ write: CalendarWrite, for session: Session) {
        waiting.append((write, session))
        if inFlight == nil { startNext() }
    }

    /// Lets a write in progress finish (its asker is not answered), then ends the thread.
    func stop() { worker.stop() }

    private func startNext() {
        guard inFlight == nil, !waiting.isEmpty else { return }
        let (write, session) = waiting.removeFirst()
        inFlight = session
        worker.submit(Job(write: write))
    }

    /// The write itself, on the worker's thread: the answer to send.
    static func perform(_ write: CalendarWrite) -> Reply {
        switch write {
        case .add(let folder, let calendar, let uid, let text):
            do throws(WriteRefusal) {
                try add(Array(text.utf8), named: EventUID.fileName(uid), into: folder)
                Log.info("event add: wrote \(uid) into calendar \(calendar) (\(folder))")
                return .line("ok " + uid)
            } catch {
                Log.warning("event add: \(error.message)")
                return .error(ProtocolError(error.code, error.message + "; nothing was written"))
            }
        case .remove(let uid, let folders):
            do throws(WriteRefusal) {
                let folder = try remove(EventUID.fileName(uid), uid: uid, from: folders)
                Log.info("event rm: removed \(uid) from \(folder)")
                return .ok
            } catch {
                return .error(ProtocolError(error.code, error.message))
            }
        }
    }

    struct WriteRefusal: Error {
        let code: ProtocolError.Code
        let message: String
    }

    /// The calendar folder `path`, opened as the reader opens it, and checked to be the
    /// service's user's and writable by no one else.
    private static func openFolder(_ path: String) throws(WriteRefusal) -> Descriptor {
        let trust = FileTrust()
        let folder: Descriptor
        do throws(TrustedPath.Failure) {
            folder = try TrustedPath.openFolder(path, trust: trust)
        } catch {
            switch error {
            case .missing: throw WriteRefusal(code: .notFound, message: "the calendar folder \(path) does not exist (vdirsyncer discover makes it)")
            case .notFolder(let place, _): throw WriteRefusal(code: .badArgument, message: "\(place) is not a folder")
            case .untrusted(let place, let kind, let why):
                throw WriteRefusal(code: .forbidden, message: "\(place), a \(kind) on the way to the calendar folder \(path), is \(why): zaoan writes no calendar there")
            case .system(let failure): throw WriteRefusal(code: .storage, message: "\(failure)")
            }
        }
        let info: stat
        do throws(SystemError) { info = try folder.status("checking \(path)") } catch { throw WriteRefusal(code: .storage, message: "\(error)") }
        guard info.st_uid == geteuid() else {
            throw WriteRefusal(code: .forbidden, message: "the calendar folder \(path) belongs to uid \(info.st_uid), not to the service's user (uid \(geteuid())): zaoan writes only into folders its account owns")
        }
        if let problem = trust.problem(info) {
            throw WriteRefusal(code: .forbidden, message: "the calendar folder \(path) is \(problem): zaoan writes no calendar there (chmod go-w)")
        }
        return folder
    }

    /// What a failed call in the folder means for the user: a read-only folder names the
    /// systemd drop-in that makes it writable for the system unit.
    private static func failure(_ error: SystemError, folder: String) -> WriteRefusal {
        if error.errno == EROFS || error.errno == EACCES || error.errno == EPERM {
            return WriteRefusal(code: .storage, message: "\(error): the calendar folder \(folder) is not writable for the service; the system unit (ProtectHome=yes, ProtectSystem=strict) needs an admin's drop-in with ReadWritePaths=\(folder) (docs/systemd.md, \"Writing calendar folders\")")
        }
        return WriteRefusal(code: .storage, message: "\(error)")
    }

    private static func add(_ bytes: [UInt8], named name: String, into path: String) throws(WriteRefusal) {
        let folder = try openFolder(path)
        let temporary = ".zaoan-\(getpid())-" + Files.randomHex() + ".tmp"
        let syncFailure: SystemError?
        do throws(SystemError) {
            syncFailure = try DurableFile.replace(name, in: folder, path: path, temporaryName: temporary, with: bytes)
        } catch {
            throw failure(error, folder: path)
        }
        // In place from the rename on; a failed folder sync is said, the file stays.
        if let syncFailure {
            Log.warning("event add: wrote \(path)/\(name), but \(syncFailure); a power loss in the next seconds could undo it")
        }
    }

    /// The largest file `event rm` reads to check it is zaoan's: far above what
    /// `event add` writes (its fields' bounds), far below what a hostile file could cost.
    static let maxCheckedBytes = 256 * 1024

    /// Removes `name` from the first of `folders` that holds it, if it is a file zaoan wrote
    /// for `uid`. Returns the folder.
    private static func remove(_ name: String, uid: String, from folders: [String]) throws(WriteRefusal) -> String {
        var problems: [String] = []
        for path in folders {
            let folder: Descriptor
            do throws(WriteRefusal) { folder = try openFolder(path) } catch {
                problems.append(error.message)
                continue
            }
            let bytes: [UInt8]
            do throws(RegularFile.ReadFailure) {
                bytes = try RegularFile.read(name, in: folder.rawValue, limit: maxCheckedBytes, followLinks: false)
            } catch {
                if case .missing = error { continue }
                throw WriteRefusal(code: .forbidden, message: "\(path)/\(name) cannot be checked (\(error)); event rm removes only a file zaoan wrote")
            }
            guard isWrittenByZaoan(bytes, uid: uid) else {
                throw WriteRefusal(code: .forbidden, message: "\(path)/\(name) was not written by zaoan (its PRODID is not \(EventFile.productPrefix)… or its UID is not \(uid)); event rm removes only the events event add wrote")
            }
            guard unlinkat(folder.rawValue, name, 0) == 0 else { throw failure(syscallFailure("removing \(path)/\(name)"), folder: path) }
            if fsync(folder.rawValue) != 0 {
                Log.warning("event rm: removed \(path)/\(name), but \(syscallFailure("syncing \(path)"))")
            }
            return path
        }
        throw WriteRefusal(code: .notFound, message: "no event \(uid) in the calendar folders" + (problems.isEmpty ? "" : " (\(problems.joined(separator: "; ")))"))
    }

    /// Whether `bytes` are a calendar of zaoan's (PRODID) holding the event `uid`, read on
    /// unfolded lines (a server or vdirsyncer may fold or reorder what it gives back).
    static func isWrittenByZaoan(_ bytes: [UInt8], uid: String) -> Bool {
        // Unfolded byte by byte: CRs dropped, then a line break followed by a space or a tab
        // joins the two lines (RFC 5545 §3.1).
        var unfolded: [UInt8] = []
        unfolded.reserveCapacity(bytes.count)
        var afterBreak = false
        for byte in bytes where byte != UInt8(ascii: "\r") {
            if afterBreak {
                afterBreak = false
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { continue }
                unfolded.append(UInt8(ascii: "\n"))
            }
            if byte == UInt8(ascii: "\n") { afterBreak = true } else { unfolded.append(byte) }
        }
        let lines = String(decoding: unfolded, as: UTF8.self).split(separator: "\n")
        return lines.contains { $0.uppercased().hasPrefix("PRODID:" + EventFile.productPrefix.uppercased()) }
            && lines.contains { $0 == "UID:" + uid }
    }
}
