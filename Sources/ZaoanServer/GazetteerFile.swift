import Glibc
import ZaoanCore
import Synchronization
import ZaoanSystem

/// The service's gazetteer: `share/zaoan/cities15000.tsv` beside the folder of its own
/// executable (`/usr/bin/zaoan-server` → `/usr/share/zaoan/`, `$PREFIX/bin` → `$PREFIX/share/zaoan/`,
/// a build tree's `.build/<triple>/debug` → `.build/<triple>/share/zaoan/`), mapped read-only
/// on the first lookup, never at start (a service that is never asked for a city outside
/// the built-in ones and the config's maps nothing), and searched in place (`GazetteerData`).
///
/// Where the file is comes from the executable alone: no variable or flag a client could set
/// moves it. It is opened as untrusted input (`MappedFile`: a regular file, no link, at most
/// `maxBytes`, written by no one but the service's user and root, its folders walked with
/// `TrustedPath`); a missing or damaged file makes every lookup answer `.unavailable` with
/// the reason, which is logged once (`takeUnlogged`, at the end of a loop turn).
///
/// Lookups come from the loop and from the thread that reads a reloaded config: the state
/// is behind a lock (an Lock, as FormatterCache's, for ThreadSanitizer).
public final class GazetteerFile: CityGazetteer, @unchecked Sendable {
    /// The largest file mapped: the shipped one is 11.5 MB.
    public static let maxBytes = 64 << 20
    public static let fileName = "cities15000.tsv"

    private enum State {
        case unopened
        case open(MappedFile, GazetteerData)
        case failed(String)
    }

    private let lock = Lock()
    private var state = State.unopened
    private var unlogged: String?
    /// Whether `unlogged` holds a failure: the loop asks after every turn, and the answer is
    /// almost always no, which this says without taking the lock.
    private let hasUnlogged = Atomic(false)
    private let folder: () -> String?

    /// - Parameter folder: the folder holding the file, asked for on the first lookup; by
    ///   default `share/zaoan` beside the executable's folder.
    public init(folder: @escaping @Sendable () -> String? = GazetteerFile.besideExecutable) {
        self.folder = folder
    }

    /// `PREFIX/share/zaoan` for the executable `/proc/self/exe` names (links resolved):
    /// PREFIX is the folder above the executable's (`PREFIX/bin`, a build tree's
    /// `.build/<triple>/debug`), or above `libexec/zaoan` (the package's
    /// `/usr/libexec/zaoan/zaoan-server`). Nil when the link cannot be read.
    @Sendable public static func besideExecutable() -> String? {
        // Nil is handled by `open`: "cannot be found: /proc/self/exe cannot be read", logged once.
        guard let executable = try? Posix.readLink("/proc/self/exe") else { return nil }
        return folder(forExecutable: executable)
    }

    static func folder(forExecutable executable: String) -> String {
        var folder = Posix.splitPath(executable).folder
        if folder.hasSuffix("/libexec/zaoan") { folder = Posix.splitPath(folder).folder }
        let prefix = Posix.splitPath(folder).folder
        return (prefix == "/" ? "" : prefix) + "/share/zaoan"
    }

    public func cities(named name: String, limit: Int) -> GazetteerAnswer {
        lock.lock()
        defer { lock.unlock() }
        if case .unopened = state { state = open() }
        switch state {
        case .unopened: return .unavailable("not opened")
        case .failed(let why): return .unavailable(why)
        case .open(_, let data):
            do throws(GazetteerData.Damage) {
                let found = try data.cities(named: name, limit: limit)
                return .found(found.cities, total: found.total)
            } catch {
                let why = "the gazetteer \(Self.fileName) is damaged: \(error)"
                state = .failed(why)
                unlogged = why
                hasUnlogged.store(true, ordering: .releasing)
                return .unavailable(why)
            }
        }
    }

    /// The failure not logged yet, once: the loop logs it (the log is the loop's).
    public func takeUnlogged() -> String? {
        guard hasUnlogged.load(ordering: .acquiring) else { return nil }
        lock.lock()
        defer { lock.unlock() }
        let why = unlogged
        unlogged = nil
        hasUnlogged.store(false, ordering: .releasing)
        return why
    }

    private func open() -> State {
        let failed: String
        if let path = folder() {
            do {
                let mapped = try map(path)
                do throws(GazetteerData.Damage) {
                    return .open(mapped, try GazetteerData(mapped.bytes))
                } catch {
                    failed = "the gazetteer \(path)/\(Self.fileName) is damaged: \(error)"
                }
            } catch {
                failed = "the gazetteer \(path)/\(Self.fileName) cannot be read: \(error)"
            }
        } else {
            failed = "the gazetteer cannot be found: /proc/self/exe cannot be read"
        }
        unlogged = failed
        hasUnlogged.store(true, ordering: .releasing)
        return .failed(failed)
    }

    private struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    private func map(_ path: String) throws(Refusal) -> MappedFile {
        let trust = FileTrust()
        let directory: Descriptor
        do throws(TrustedPath.Failure) {
            directory = try TrustedPath.openFolder(path, trust: trust)
        } catch {
            switch error {
            case .missing(let place): throw Refusal(description: "\(place) is missing (the build or the package installs it from packaging/data/cities15000.tsv.xz)")
            case .notFolder(let place, _): throw Refusal(description: "\(place) is not a folder")
            case .untrusted(let place, let kind, let why): throw Refusal(description: "\(place), a \(kind), is \(why)")
            case .system(let failure): throw Refusal(description: "\(failure)")
            }
        }
        do throws(RegularFile.ReadFailure) {
            return try MappedFile.map(Self.fileName, in: directory.rawValue, limit: Self.maxBytes, trust: trust)
        } catch {
            switch error {
            case .missing: throw Refusal(description: "it is missing (the build or the package installs it from packaging/data/cities15000.tsv.xz)")
            case .notRegular(let kind): throw Refusal(description: "it is a \(kind), not a regular file")
            case .tooLarge(let bytes): throw Refusal(description: "it is \(bytes) bytes; at most \(Self.maxBytes)")
            case .untrusted(let why): throw Refusal(description: "it is \(why)")
            case .system(let failure): throw Refusal(description: "\(failure)")
            }
        }
    }
}
