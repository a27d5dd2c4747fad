import Glibc
import ZaoanSystem

/// A configured calendar: one `.ics` file, or a folder of them as vdirsyncer and khal keep
/// them (a vdir: one event per file). A folder is read non-recursively; dotfiles (vdirsyncer's
/// temporary files among them) and names not ending in `.ics` are ignored. Every file is
/// read through `RegularFile.read`: FIFOs, devices and oversized files are refused.
public struct CalendarSource: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// What loading found.
    public enum State {
        /// Nothing there yet (vdirsyncer has not run): not an error, the bar waits.
        case waiting(reason: String)
        /// Whatever could be read; `problems` lists each file that could not, and why.
        case loaded(CalendarSet)
    }

    /// Reads the file or every `.ics` file of the folder.
    public func load() -> State {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return .waiting(reason: "\(SafeName.source(path)) does not exist yet") }
            return .loaded(CalendarSet(documents: [], problems: [problem(SystemError(errno: code, "checking \(path)").description)]))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { return .loaded(loadFolder()) }
        switch read(path, in: AT_FDCWD, source: path) {
        case .success(let document): return .loaded(CalendarSet(documents: [document], problems: document.skipped))
        case .failure(let problem): return .loaded(CalendarSet(documents: [], problems: [problem]))
        }
    }

    private func loadFolder() -> CalendarSet {
        let directory = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return CalendarSet(documents: [], problems: [problem(SystemError(errno: errno, "opening \(path)").description)]) }
        defer { Posix.close(directory) }
        var names = Self.icsNames(in: directory)
        var set = CalendarSet(documents: [], problems: [])
        if names.count > CalendarLimits.filesPerFolder {
            set.problems.append(problem("\(names.count) .ics files; the first \(CalendarLimits.filesPerFolder) by name are read"))
            names.removeSubrange(CalendarLimits.filesPerFolder...)
        }
        var events = 0
        for name in names {
            let source = path.hasSuffix("/") ? path + name : path + "/" + name
            guard events < CalendarLimits.eventsPerSource else {
                set.problems.append(problem("more than \(CalendarLimits.eventsPerSource) events; the files from \(SafeName.short(name)) on are not read"))
                break
            }
            switch read(name, in: directory, source: source) {
            case .success(let document):
                events += document.events.count
                set.documents.append(document)
                set.problems += document.skipped
            case .failure(let problem):
                set.problems.append(problem)
            }
        }
        return set
    }

    /// The names ending in `.ics` and not starting with a dot, sorted (so a cut is stable).
    private static func icsNames(in directory: Int32) -> [String] {
        let copy = dup(directory)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { Posix.close(copy) }
            return []
        }
        defer { closedir(stream) }
        var names: [String] = []
        // Listing stops a little past the limit: a folder of a million files costs no more.
        while names.count <= CalendarLimits.filesPerFolder * 2, let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix("."), name.lowercased().hasSuffix(".ics"), name.count > 4 else { continue }
            names.append(name)
        }
        return names.sorted()
    }

    private func read(_ name: String, in directory: Int32, source: String) -> Result<CalendarDocument, CalendarProblem> {
        let bytes: [UInt8]
        do throws(RegularFile.ReadFailure) {
            bytes = try RegularFile.read(name, in: directory, limit: CalendarLimits.bytesPerFile)
        } catch {
            let reason: String = switch error {
            case .missing: "gone before it could be read"
            case .notRegular(let kind): "a \(kind), not a file; left alone"
            case .tooLarge(let bytes): "\(bytes) bytes; at most \(CalendarLimits.bytesPerFile)"
            case .system(let failure): failure.description
            }
            return .failure(CalendarProblem(source: source, uid: nil, message: reason))
        }
        do throws(CalendarReadError) {
            return .success(try CalendarDocument(parsing: bytes, source: source))
        } catch {
            return .failure(CalendarProblem(source: source, uid: nil, message: (error.line.map { "line \($0): " } ?? "") + error.reason))
        }
    }

    private func problem(_ message: String) -> CalendarProblem {
        CalendarProblem(source: path, uid: nil, message: message)
    }
}

/// The documents of a source and the problems met reading it.
public struct CalendarSet {
    public internal(set) var documents: [CalendarDocument]
    public internal(set) var problems: [CalendarProblem]

    /// The occurrences of every document in `window`, in order, with one iteration budget
    /// (`CalendarLimits.iterationsPerSource`) for the whole source.
    public func occurrences(in window: CalendarWindow, defaultZone: CalendarZone) -> CalendarExpansion {
        var budget = IterationBudget(remaining: CalendarLimits.iterationsPerSource)
        var expansion = CalendarExpansion()
        for document in documents {
            document.expand(into: &expansion, window: window, defaultZone: defaultZone, budget: &budget)
        }
        expansion.finish(source: documents.first?.source ?? "")
        return expansion
    }
}
