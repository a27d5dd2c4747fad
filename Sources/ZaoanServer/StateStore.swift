import Glibc
import ZaoanCore

/// The live rooms on disk, in `state.json` (format: `StateFile`).
///
/// A save is a `DurableFile.replace` of `state.json`. **Its rename is the commit point**: a
/// failure before it leaves the old file and changes nothing; once it has happened the new
/// rooms are the state, on disk and in memory, even if the directory sync then fails (that
/// is reported as `SaveOutcome.savedNotSynced`: a power loss in the next seconds could
/// still undo it).
///
/// The directory must belong to the service's user and be closed to writes by others:
/// anyone who can write there could replace `state.json` or plant a link where the
/// temporary file goes. Every file operation is relative to the directory opened and
/// checked once per operation, so a path swapped meanwhile is not followed.
public struct StateStore: Sendable {
    public let directory: String
    public var path: String { directory + "/state.json" }
    private static let fileName = "state.json"
    private static let temporaryPrefix = "state.json.tmp-"

    public init(directory: String) {
        self.directory = directory
    }

    /// `$STATE_DIRECTORY` (systemd's StateDirectory=), else `$XDG_STATE_HOME/zaoan`, else
    /// `~/.local/state/zaoan`.
    public static func defaultDirectory(environment: [String: String]) -> String {
        if let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first, state.hasPrefix("/") {
            return String(state)
        }
        if let base = environment["XDG_STATE_HOME"], base.hasPrefix("/") {
            return base + "/zaoan"
        }
        return (environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? Posix.homeDirectory()) + "/.local/state/zaoan"
    }

    public struct Loaded {
        public var schedule = LiveSchedule()
        /// Rooms that were dropped and files moved aside, one line each, for the log.
        public var problems: [String] = []
    }

    /// Reads the rooms. A missing file is an empty schedule. A file that is unreadable, not a
    /// state file, too large or of another version is moved aside
    /// (`state.json.corrupt-<time>`), so the service starts instead of failing on its own
    /// state at every restart; rooms that break the rules are dropped one by one.
    /// - Throws: when the directory itself is unsafe (see the type's comment).
    public func load(now: Instant = Instant.now) throws(SystemError) -> Loaded {
        guard let folder = try openDirectoryIfPresent() else { return Loaded() }
        let directoryFD = folder.rawValue
        removeAbandonedTemporaryFiles(in: folder)
        let problem: String
        do {
            let bytes = try RegularFile.read(Self.fileName, in: directoryFD, limit: StateFile.maxBytes, followLinks: false)
            let decoded = try StateFile.decode(bytes)
            return Loaded(schedule: decoded.schedule, problems: decoded.dropped.map { "\(path): dropped \($0)" })
        } catch let failure as Files.ReadFailure {
            switch failure {
            case .missing: return Loaded()
            case .notRegular(let kind): problem = "\(path) is a \(kind), not a file"
            case .tooLarge(let bytes): problem = "\(path) is \(bytes) bytes, more than the \(StateFile.maxBytes >> 20) MiB a state file may be"
            case .untrusted(let why): problem = "\(path) is \(why)"  // not asked for: the directory is checked
            case .system(let error): problem = "cannot read \(path): \(error)"
            }
        } catch let failure as StateFile.Failure {
            problem = "\(path) \(failure)"
        } catch {
            problem = "\(path): \(error)"
        }
        let aside = Self.fileName + ".corrupt-" + String(now.unixSeconds)
        do throws(SystemError) {
            _ = try syscall("moving it aside") { renameat(directoryFD, Self.fileName, directoryFD, aside) }  // 0 on success; errors throw
            return Loaded(problems: ["\(problem); moved it to \(directory)/\(aside) and started with no live rooms. Inspect it, and re-add the rooms you need with live add"])
        } catch {
            return Loaded(problems: ["\(problem); could not move it aside (\(String(cString: strerror(error.errno)))), starting with no live rooms; fix or remove it by hand"])
        }
    }

    public enum SaveOutcome: Equatable, Sendable {
        case saved
        /// `state.json` holds the new rooms but the directory could not be synced.
        case savedNotSynced(String)
    }

    /// Writes the rooms durably.
    /// - Throws: when the change did not reach `state.json` (the old file is untouched).
    public func save(_ schedule: LiveSchedule) throws(SystemError) -> SaveOutcome {
        let folder = try openDirectory()
        let temporary = Self.temporaryPrefix + "\(getpid())-" + Files.randomHex()
        let syncFailure = try DurableFile.replace(Self.fileName, in: folder, path: directory, temporaryName: temporary,
                                                  with: StateFile.encode(schedule))
        return syncFailure.map { .savedNotSynced($0.description) } ?? .saved
    }

    /// Takes the directory's lock (`StateLock`), creating the directory if it is missing.
    /// - Throws: when the directory is unsafe or the lock file cannot be used.
    func lock() throws(SystemError) -> StateLock.Outcome {
        let folder = try openDirectory()  // open while the lock file is opened in it
        return try StateLock.take(in: folder.rawValue, directory: directory)
    }

    /// Opens the state directory, creating it (and missing parents, mode 0700), and checks
    /// that it is ours and that no one else can write to it.
    private func openDirectory() throws(SystemError) -> Descriptor {
        try makeDirectory()
        return try openCheckedDirectory()
    }

    /// `openDirectory`, without creating it: nil when it does not exist.
    private func openDirectoryIfPresent() throws(SystemError) -> Descriptor? {
        do throws(SystemError) {
            return try openCheckedDirectory()
        } catch where error.errno == ENOENT {
            return nil
        }
    }

    private func openCheckedDirectory() throws(SystemError) -> Descriptor {
        let folder = try Descriptor.open(directory, O_RDONLY | O_DIRECTORY, "opening the state directory \(directory)")
        let info = try folder.status("checking the state directory \(directory)")
        guard info.st_uid == geteuid(), info.st_mode & 0o022 == 0 else {
            throw SystemError(errno: EPERM, "the state directory \(directory) must belong to uid \(geteuid()) and be writable by no one else (it is owned by uid \(info.st_uid), mode \(String(info.st_mode & 0o7777, radix: 8))); fix it with chown and chmod 700, or point XDG_STATE_HOME elsewhere")
        }
        return folder
    }

    /// A save interrupted by a crash leaves `state.json.tmp-<pid>-<random>`; the state file
    /// itself is whole (old or new), so a leftover whose process is gone is only clutter.
    private func removeAbandonedTemporaryFiles(in folder: borrowing Descriptor) {
        // Not listed (no descriptor left): the clutter stays until the next start.
        let leftovers = (try? folder.entryNames(where: { name in
            guard name.hasPrefix(Self.temporaryPrefix) else { return false }
            let owner = name.dropFirst(Self.temporaryPrefix.count).split(separator: "-").first.flatMap { pid_t($0) }
            guard let owner else { return true }
            return !(owner == getpid() || kill(owner, 0) == 0 || errno == EPERM)  // not a live save
        }, "listing \(directory)")) ?? []
        for name in leftovers { unlinkat(folder.rawValue, name, 0) }
    }

    private func makeDirectory() throws(SystemError) {
        var partial = ""
        for component in directory.split(separator: "/") {
            partial += "/" + component
            do throws(SystemError) {
                _ = try syscall("creating the state directory \(partial)") { mkdir(partial, 0o700) }  // 0 on success
            } catch where error.errno == EEXIST {
                continue  // there already: openDirectory checks what it is
            }
        }
    }
}
