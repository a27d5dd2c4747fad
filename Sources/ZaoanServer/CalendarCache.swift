import ZaoanCalendar
import ZaoanSystem

/// What each calendar file gave at its last reading, kept by the calendar reader's thread so
/// that a reading parses only the files that changed: an edit in a folder of 5,000 events,
/// or beside a file whose rules cost the reader its whole budget, costs one file. A file
/// counts as unchanged while its identity (`FileIdentity`: inode, size, times to the
/// nanosecond, a link's target) is as it was just before it was read; the reader process
/// compares, so a file is never trusted for longer than it stays the same. An identity taken
/// within a second of the file's last change proves nothing (a file system with whole-second
/// times, or the kernel's clock tick, gives a rewrite of the same size the same times:
/// `FileIdentity.mayHideChanges`): such a file is kept for this reading and read again at
/// the next. Everything is read again when the
/// calendars, the zone or the window (hourly) change, or after a reading that failed.
/// A configured file's own name (`X-WR-CALNAME`) is kept with it; a folder's `displayname`
/// is read at every reading.
struct CalendarCache {
    private struct Entry {
        let identity: FileIdentity
        let events: Int
        let occurrences: [CalendarOccurrence]
        let problems: [String]
        let name: String?
        /// Its identity proves it unchanged (`FileIdentity.mayHideChanges`); else it is read
        /// again at the next reading.
        let settled: Bool
    }

    private struct Key: Equatable {
        let zone: String
        let from: Int64
        let seconds: Int64
        let calendars: [String]
    }

    private var entries: [String: Entry] = [:]
    private var key: Key?
    /// Wall-clock seconds from before the reading being prepared took any identity.
    private var readingSince: Int64 = 0

    /// Tells the job which files it need not read.
    /// - Parameter now: the wall clock's seconds now, before the reader looks at any file.
    mutating func prepare(_ job: inout ReaderJob, now: Int64) {
        let wanted = Key(zone: job.zone, from: job.now, seconds: job.windowSeconds, calendars: job.calendars)
        if wanted != key {
            entries = [:]
            key = wanted
        }
        readingSince = now
        job.knownFiles = entries.filter(\.value.settled).sorted { $0.key < $1.key }
            .map { .init(path: $0.key, identity: $0.value.identity, events: $0.value.events) }
    }

    /// Keeps what the reading read, drops what it no longer found, and gives the whole
    /// picture: the kept files' occurrences and problems with the new ones, in order and
    /// within `CalendarLimits.occurrencesPerWindow`.
    mutating func merge(_ result: ReaderResult) -> ReaderResult {
        guard result.finished else {
            key = nil  // a reading that failed or was ended: read everything next time
            return result
        }
        var merged = result
        let occurrences = Dictionary(grouping: result.events, by: \.source)
        let problems = Dictionary(grouping: result.sourceProblems, by: \.source)
        var next: [String: Entry] = [:]
        for path in result.unchangedFiles {
            if let entry = entries[path] { next[path] = entry }
        }
        for (path, file) in result.readFiles {
            next[path] = Entry(identity: file.identity, events: file.events, occurrences: occurrences[path] ?? [],
                               problems: problems[path]?.map(\.text) ?? [], name: result.names[path],
                               settled: !file.identity.mayHideChanges(after: readingSince))
        }
        entries = next
        for (path, entry) in next where merged.names[path] == nil {
            if let name = entry.name { merged.names[path] = name }
        }
        let unread = result.sourceProblems.filter { next[$0.source] == nil }
        let found = result.problems + unread.map(\.text) + next.sorted { $0.key < $1.key }.flatMap(\.value.problems)
        merged.problems = Array(found.prefix(ReaderResult.keptProblems))
        merged.problemsNotKept += found.count - merged.problems.count
        // Each configured calendar keeps at most occurrencesPerWindow, as one reading does.
        let all = next.values.flatMap(\.occurrences) + result.events.filter { next[$0.source] == nil }
        var shown: [CalendarOccurrence] = []
        let owners = CalendarPaths(key?.calendars ?? [])
        for (calendar, occurrences) in Dictionary(grouping: all, by: { owners.calendar(of: $0.source) ?? $0.source }) {
            var sorted = occurrences.sorted(by: Self.inOrder)
            if sorted.count > CalendarLimits.occurrencesPerWindow {
                merged.problems.append(CalendarProblem(source: calendar, uid: nil, message:
                    "\(sorted.count) occurrences in the window; the first \(CalendarLimits.occurrencesPerWindow) are kept").description)
                sorted.removeSubrange(CalendarLimits.occurrencesPerWindow...)
            }
            shown += sorted
        }
        merged.events = shown.sorted(by: Self.inOrder)
        return merged
    }

    private static func inOrder(_ a: CalendarOccurrence, _ b: CalendarOccurrence) -> Bool {
        (a.start, a.end, a.uid, a.source) < (b.start, b.end, b.uid, b.source)
    }

}
