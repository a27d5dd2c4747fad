import ZaoanRecurrence
import Glibc
import ZaoanSystem

/// A configured calendar: one `.ics` file, or a folder of them as vdirsyncer and khal keep
/// them (a vdir: one event per file). A folder is read non-recursively; dotfiles (vdirsyncer's
/// temporary files among them) and names not ending in `.ics` are ignored. Every file is
/// read through `RegularFile.readTrusted`: FIFOs, devices and oversized files are refused,
/// and so is anything another account than the service's user and root could have written
/// (`FileTrust`): a folder they could write is not read at all, a file of theirs is skipped,
/// and a symbolic link is followed only when it and its target are the user's or root's.
/// The path to the calendar is walked without following anyone else's link, and a folder on
/// the way that another account could write refuses it too (`TrustedPath`).
///
/// What the calendar calls itself (`CalendarSet.name`) comes from a folder's `displayname`
/// file or a file's `X-WR-CALNAME` (`CalendarName`), read by the same rules.
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

    /// Reads the file or every `.ics` file of the folder. The path is walked component by
    /// component (`TrustedPath`): a folder on the way another account could write, or a link
    /// of theirs, refuses the whole calendar, since they could swap what follows for a link
    /// to the user's private calendars; the calendar's own folder is then checked as opened,
    /// and every file is read relative to it.
    public func load() -> State {
        let trust = FileTrust()
        do throws(TrustedPath.Failure) {
            let folder = try TrustedPath.openFolder(path, trust: trust)
            if let refused = refusal(of: folder.rawValue, named: path, trust: trust) { return .loaded(CalendarSet(documents: [], problems: [refused])) }
            var set = loadFolder(folder, trust: trust)
            let (name, problem) = CalendarName.displayname(in: folder.rawValue, path: path, trust: trust)
            set.name = name
            if let problem { set.problems.append(problem) }
            return .loaded(set)
        } catch {
            guard case .notFolder(_, isLast: true) = error else { return failed(error, trust: trust) }
        }
        // A file: an entry of its folder, read as the entries of a configured folder are.
        let (parentPath, name) = Posix.splitPath(path)
        let parent: Descriptor
        do throws(TrustedPath.Failure) { parent = try TrustedPath.openFolder(parentPath, trust: trust) } catch { return failed(error, trust: trust) }
        if let refused = refusal(of: parent.rawValue, named: parentPath, trust: trust) { return .loaded(CalendarSet(documents: [], problems: [refused])) }
        var places: [String] = []
        var set: CalendarSet
        switch read(name, in: parent.rawValue, source: path, trust: trust, named: true, places: &places) {
        case .document(let document, let calendarName):
            set = CalendarSet(documents: [document], problems: document.skipped)
            set.name = calendarName
        case .problem(let problem): set = CalendarSet(documents: [], problems: [problem])
        case .unchanged: set = CalendarSet(documents: [], problems: [])
        }
        set.watchPlaces = places
        return .loaded(set)
    }

    /// What a walk that did not reach the calendar means: nothing there yet (waiting), or a
    /// problem saying what is wrong and what to do.
    private func failed(_ failure: TrustedPath.Failure, trust: FileTrust) -> State {
        let message: String
        switch failure {
        case .missing, .notFolder(_, isLast: false):
            return .waiting(reason: "\(SafeName.source(path)) does not exist yet")
        case .notFolder(let place, isLast: true):
            message = "\(SafeName.source(place)) is not a folder"
        case .untrusted(let found, let kind, let why):
            // A link's target may hold any bytes: the place is shown made safe.
            let place = SafeName.source(found)
            let subject = found == path || found + "/" == path ? "it is" : "\(place), on the way to it, is"
            let owner = trust.user == 0 ? "root" : "uid \(trust.user)"
            let only = trust.user == 0 ? "root" : "\(owner) or root"
            message = kind == "folder"
                ? "\(subject) a folder \(why): that account could swap what follows for a link to other calendars, so none is read; move the calendars under folders only \(only) can write, or make \(place) \(owner)'s and writable by no one else (chown, chmod go-w)"
                : "\(subject) a \(kind) \(why): another account's link could lead to any calendar, so it is not followed; remove it, or make the link as \(owner)"
        case .system(let error):
            message = error.description
        }
        return .loaded(CalendarSet(documents: [], problems: [problem(message)]))
    }

    /// Why the open folder `fd` is not read at all: an account other than the service's user
    /// and root could write it, so any file in it could be theirs. Nil when it is safe.
    private func refusal(of fd: Int32, named folder: String, trust: FileTrust) -> CalendarProblem? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return CalendarProblem(source: folder, uid: nil, message: syscallFailure("checking \(folder)").description) }
        guard let why = trust.problem(info) else { return nil }
        return CalendarProblem(source: folder, uid: nil, message: "a folder \(why): another account could plant or replace calendars in it, so none is read; make it uid \(trust.user)'s or root's and writable by no one else (chown, chmod go-w), or keep the calendars elsewhere")
    }

    private func loadFolder(_ directory: borrowing Descriptor, trust: FileTrust) -> CalendarSet {
        var set = CalendarSet(documents: [], problems: [])
        var names: [String]
        do throws(SystemError) {
            names = try Self.icsNames(in: directory)
        } catch {
            // No descriptor left for the listing, most often: said, and read again at the next change.
            set.problems.append(problem("cannot be listed (\(String(cString: strerror(error.errno)))), so none of its calendars is read now"))
            return set
        }
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
            switch read(name, in: directory.rawValue, source: source, trust: trust, places: &set.watchPlaces) {
            case .document(let document, _):
                events += document.events.count
                set.documents.append(document)
                set.problems += document.skipped
            case .problem(let problem):
                set.problems.append(problem)
            case .unchanged(let count):
                events += count
            }
        }
        return set
    }

    /// The names ending in `.ics` and not starting with a dot, sorted (so a cut is stable).
    private static func icsNames(in directory: borrowing Descriptor) throws(SystemError) -> [String] {
        // Listing stops a little past the limit: a folder of a million files costs no more.
        try directory.entryNames(limit: CalendarLimits.filesPerFolder * 2 + 1, where: { name in
            !name.hasPrefix(".") && name.lowercased().hasSuffix(".ics") && name.count > 4
        }, "listing the folder").sorted()
    }

    private enum FileOutcome {
        /// With the calendar's name in it, when it was asked for and the file has one.
        case document(CalendarDocument, name: String?)
        case problem(CalendarProblem)
        /// As the caller last had it read (`CalendarProgress.unchangedFile`): its events.
        case unchanged(events: Int)
    }

    /// Reads one file, unless the caller says it has it as it is now. The identity is taken
    /// first, so a change while it is read makes it differ the next time.
    /// - Parameters:
    ///   - named: look for the calendar's `X-WR-CALNAME` too (a configured file).
    ///   - places: gets where the file can change without an event in its folder
    ///     (`watchPlaces`), when it is kept (read, refused for its text, or unchanged).
    private func read(_ name: String, in directory: Int32, source: String, trust: FileTrust, named: Bool = false,
                      places: inout [String]) -> FileOutcome {
        guard let taken = FileIdentity.taken(name, in: directory) else {
            return outcome(parse(name, in: directory, source: source, trust: trust, named: named))
        }
        let identity = taken.identity
        if let events = CalendarProgress.unchangedFile?(source, identity) {
            places += Self.watchPlaces(name, in: directory, source: source, entry: taken.entry, target: taken.target)
            return .unchanged(events: events)
        }
        let outcome = parse(name, in: directory, source: source, trust: trust, named: named)
        switch outcome {
        case .success(let read): CalendarProgress.fileRead?(source, identity, read.document.events.count)
        // What it holds was refused (not iCalendar, too many lines): as lasting as a document.
        case .failure(let problem) where problem.fromContent: CalendarProgress.fileRead?(source, identity, 0)
        case .failure: return self.outcome(outcome)
        }
        places += Self.watchPlaces(name, in: directory, source: source, entry: taken.entry, target: taken.target)
        return self.outcome(outcome)
    }

    private func outcome(_ parsed: Result<(document: CalendarDocument, name: String?), ReadProblem>) -> FileOutcome {
        switch parsed {
        case .success(let read): .document(read.document, name: read.name)
        case .failure(let problem): .problem(problem.problem)
        }
    }

    /// Where `name` can change without an event in the folder it is read from, so that the
    /// service watches there too: a symbolic link's target's folder (an edit of the target,
    /// or a rename over it), and a file with other hard links itself (a write through
    /// another name is told only to a watch on the file, or on that name's folder).
    /// - Parameters:
    ///   - entry: `name` itself; `target`: what it leads to (`FileIdentity.taken`).
    static func watchPlaces(_ name: String, in directory: Int32, source: String, entry: stat, target: stat) -> [String] {
        var places: [String] = []
        var file = source
        if (entry.st_mode & S_IFMT) == S_IFLNK {
            let destination: String
            do throws(SystemError) { destination = try Posix.readLink(name, in: directory) } catch { return [] }  // gone since: the next reading sees it
            let (folder, leaf) = Posix.splitPath(destination)
            let absolute = destination.hasPrefix("/") ? folder : Posix.splitPath(source).folder + "/" + folder
            places.append(absolute)
            file = absolute + "/" + leaf
        }
        if (target.st_mode & S_IFMT) == S_IFREG && target.st_nlink > 1 { places.append(file) }
        return places
    }

    private struct ReadProblem: Error {
        let problem: CalendarProblem
        /// Refused for its text, not for what it is or who owns it (checked every time).
        let fromContent: Bool
    }

    private func parse(_ name: String, in directory: Int32, source: String, trust: FileTrust,
                       named: Bool) -> Result<(document: CalendarDocument, name: String?), ReadProblem> {
        guard CalendarProgress.fileStarting?(source) != false else {
            return .failure(ReadProblem(problem: CalendarProblem(source: source, uid: nil, message:
                "left out unread: it ran past the reader's budget at an earlier reading (see the log); it is read again once it changes"), fromContent: false))
        }
        let bytes: [UInt8]
        do throws(RegularFile.ReadFailure) {
            bytes = try RegularFile.readTrusted(name, in: directory, limit: CalendarLimits.bytesPerFile, trust: trust)
        } catch {
            let reason: String = switch error {
            case .missing: "gone before it could be read"
            case .notRegular(let kind): "a \(kind), not a file; left alone"
            case .tooLarge(let bytes): "\(bytes) bytes; at most \(CalendarLimits.bytesPerFile)"
            case .untrusted(let why): "\(why); not read, as another account could have changed it"
            case .system(let failure): failure.description
            }
            return .failure(ReadProblem(problem: CalendarProblem(source: source, uid: nil, message: reason), fromContent: false))
        }
        do throws(CalendarReadError) {
            return .success((try CalendarDocument(parsing: bytes, source: source), named ? CalendarName.calendarName(in: bytes) : nil))
        } catch {
            return .failure(ReadProblem(problem: CalendarProblem(source: source, uid: nil, message: (error.line.map { "line \($0): " } ?? "") + error.reason),
                                        fromContent: true))
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
    /// What the calendar calls itself (`CalendarName`): a folder's `displayname`, a file's
    /// `X-WR-CALNAME`, shown safe and bounded; nil without one, and for a file that was not
    /// read because it had not changed (the caller keeps what it had).
    public internal(set) var name: String?
    /// Where its files can change without an event in their folder (`watchPlaces`): the
    /// folders its links lead to, and its files with other hard links.
    public internal(set) var watchPlaces: [String] = []

    init(documents: [CalendarDocument], problems: [CalendarProblem]) {
        self.documents = documents
        self.problems = problems
    }

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
