import Foundation
import Glibc
import ZaoanCore

/// The live rooms on disk. A change is acknowledged only after `save` returns: the new
/// state is written to a temporary file, fsynced, renamed over `state.json`, and the
/// directory fsynced, so a crash at any moment leaves the old or the new file, never a mix.
public struct StateStore: Sendable {
    public static let formatVersion = 1
    public let directory: String
    public var path: String { directory + "/state.json" }

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
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state/zaoan"
    }

    private struct File: Codable {
        var version: Int
        var rooms: [LiveRoom]
    }

    /// Reads the rooms. A missing file is an empty schedule; a corrupt, unreadable or
    /// too-new file is moved aside (`state.json.corrupt-<time>`) and reported in `problem`,
    /// so the service starts empty instead of failing on its own state every restart.
    public func load(now: Date = Date()) -> (schedule: LiveSchedule, problem: String?) {
        removeAbandonedTemporaryFiles()
        var info = stat()
        guard stat(path, &info) == 0 else {
            return (LiveSchedule(), errno == ENOENT ? nil : "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        let problem: String
        if let data = FileManager.default.contents(atPath: path) {
            do {
                let decoder = JSONDecoder()
                decoder.dateDecodingStrategy = .secondsSince1970
                let file = try decoder.decode(File.self, from: data)
                if file.version == Self.formatVersion {
                    return (LiveSchedule(rooms: file.rooms), nil)
                }
                problem = "\(path) has format version \(file.version); this zaoan reads version \(Self.formatVersion)"
            } catch {
                problem = "\(path) is not a valid state file (\(error))"
            }
        } else {
            problem = "cannot read \(path)"
        }
        let aside = path + ".corrupt-" + String(Int(now.timeIntervalSince1970))
        if rename(path, aside) == 0 {
            return (LiveSchedule(), "\(problem); moved it to \(aside) and started with no live rooms. Inspect it, and re-add the rooms you need with live add")
        }
        return (LiveSchedule(), "\(problem); could not move it aside (\(String(cString: strerror(errno)))), starting with no live rooms; fix or remove it by hand")
    }

    /// Writes the rooms durably. Throws without touching the existing file on any failure.
    public func save(_ schedule: LiveSchedule) throws(SystemError) {
        try makeDirectory()
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data: Data
        do {
            data = try encoder.encode(File(version: Self.formatVersion, rooms: schedule.sorted))
        } catch {
            throw SystemError(errno: EINVAL, "encoding the live rooms: \(error)")
        }
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SystemError(errno: errno, "creating \(temporary)") }
        let written = data.withUnsafeBytes { Posix.writeAll(fd, $0) }
        if !written || fsync(fd) != 0 {
            let code = errno
            Posix.close(fd)
            unlink(temporary)
            throw SystemError(errno: code, "writing \(temporary)")
        }
        Posix.close(fd)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw SystemError(errno: code, "replacing \(path)")
        }
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryFD >= 0 else { throw SystemError(errno: errno, "opening \(directory) to sync it") }
        defer { Posix.close(directoryFD) }
        guard fsync(directoryFD) == 0 else { throw SystemError(errno: errno, "syncing \(directory)") }
    }

    /// A save interrupted by a crash leaves `state.json.tmp-<pid>`; the state file itself is
    /// whole (old or new), so the leftovers are only clutter.
    private func removeAbandonedTemporaryFiles() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix("state.json.tmp-") && name != "state.json.tmp-\(getpid())" {
            unlink(directory + "/" + name)
        }
    }

    private func makeDirectory() throws(SystemError) {
        var partial = ""
        for component in directory.split(separator: "/") {
            partial += "/" + component
            if mkdir(partial, 0o700) != 0 && errno != EEXIST {
                throw SystemError(errno: errno, "creating the state directory \(partial)")
            }
        }
    }
}
