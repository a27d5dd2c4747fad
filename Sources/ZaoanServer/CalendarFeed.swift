import Glibc
import ZaoanCalendar
import ZaoanCore

/// The config's `calendars` (`.ics` files and vdir folders), read through ZaoanCalendar
/// (libical), expanded for the window ahead and handed to the Responder, where the events
/// count like rooms. Watched with inotify: an edit, a new or removed file, or an atomic
/// rename-over is read again 200 ms after the last change (a sync writes many files at
/// once), and at most 1 s after the first change of a burst however long it lasts, so it
/// shows within about a second without a restart. Each configured path is watched through
/// its folder (a file's parent), so a file replaced by rename is still seen; a path that
/// does not exist yet is waited for, through its parent, or once a minute while even the
/// parent is missing. The folders links lead to, and hard-linked files, are watched too
/// (`CalendarWatches`). The window moves on once an hour.
///
/// Reading and expanding happen in a reader process (`ReaderProcess`), supervised from a
/// thread of its own (`BackgroundWorker`): libical may spend seconds on one rule and a file
/// may cost memory, and neither reaches the loop or its memory. Nothing waits for a
/// reading, start-up included: until a calendar is read its events are simply not there
/// yet (`stats` counts the calendars being read). Watching stays on the loop.
///
/// Each event carries its calendar's name: the config's `name`, else the one the calendar
/// gives itself (a folder's `displayname`, a file's `X-WR-CALNAME`, read by the reader),
/// else the folder's or file's name; one that reads as a source of zaoan's own (`live`,
/// `festival`) gets a suffix (`CalendarName.unreserved`), said in `calendar_problems`.
final class CalendarFeed: EventHandler {
    private let loop: EventLoop
    private let inotify: Inotify
    private var watches: CalendarWatches
    private var paths: [String] = []
    /// The config's `name` of each calendar that has one, by path.
    private var configuredNames: [String: String] = [:]
    /// The config's default `alarms` of each calendar that has some, by path: for its
    /// events that have no VALARM of their own (as khal's `default_alarms`).
    private var defaultAlarms: [String: [Alarm]] = [:]
    /// The config's `color` of each calendar that has one, by path.
    private var colors: [String: BarColor] = [:]
    private var zoneName = "UTC"
    private var windowSeconds = CalendarLimits.defaultWindowSeconds
    /// Takes the events and every configured calendar's name, in the config's order.
    private let onChange: ([LiveRoom], [String]) -> Void
    private var debounce: MonotonicTimer!
    private var slide: MonotonicTimer!
    private var reader: BackgroundWorker<ReaderJob, ReaderResult>!
    private let stopping = ReaderProcess.StopFlag()
    /// What the last reading found, for `stats` and the log.
    private(set) var sourcesLoaded = 0
    private(set) var sourcesWaiting = 0
    private(set) var problems: [String] = []
    /// Problems past `ReaderResult.keptProblems`, counted only.
    private(set) var problemsNotKept = 0
    /// New problems logged after one reading; the rest are counted in one line.
    static let problemsLoggedPerReading = 20
    /// Files the last reading parsed, and files it kept as they were (`CalendarCache`).
    private(set) var filesParsed = 0
    private(set) var filesUnchanged = 0
    /// Calendars being read now: all of them while a reading is waiting or in progress.
    var sourcesReading: Int { reader.isBusy ? paths.count : 0 }
    /// When the first change of the burst being waited out came (monotonic seconds).
    private var burstStartedAt: Double?
    /// Places past `CalendarWatches.maxPlaces` are logged once, when there first are any.
    private var placesOverflowLogged = false
    private let clock: TimeSource
    /// How long to wait after a change before reading (a sync writes many files), and at
    /// most after the first change of a burst (a file replaced thousands of times a second
    /// must not put the reading off for ever).
    static let settleSeconds = 0.2
    static let longestSettleSeconds = 1.0

    init(loop: EventLoop, clock: TimeSource, onChange: @escaping ([LiveRoom], [String]) -> Void) throws(SystemError) {
        self.loop = loop
        self.clock = clock
        self.onChange = onChange
        inotify = try Inotify("watching calendar files")
        watches = CalendarWatches(inotify: inotify)
        try loop.register(inotify.rawValue, events: EventLoop.readable, handler: self)
        debounce = try MonotonicTimer(loop: loop) { [unowned self] in self.read() }
        slide = try MonotonicTimer(loop: loop) { [unowned self] in self.read() }
        // Files that ran past the reader's limits, left out while they stay as they were:
        // only the reader's thread touches them.
        nonisolated(unsafe) var culprits = Set<ReaderProcess.Culprit>()
        nonisolated(unsafe) var cache = CalendarCache()
        reader = try BackgroundWorker(loop: loop, purpose: "reading calendars", perform: { [stopping, clock] job in
            var job = job
            let now = Int64(clock.unixSeconds)
            cache.prepare(&job, now: now)
            return cache.merge(ReaderProcess.run(job, stop: stopping, culprits: &culprits, now: now))
        }) { [unowned self] reading in
            self.apply(reading)
        }
    }

    /// At exit: ends a reading in progress (its reader process within 0.1 s), then the
    /// reader's thread.
    func stop() {
        stopping.set()
        reader.stop()
    }

    /// Takes the settings' calendars and has them read (at start too: the service is ready
    /// before they are).
    func configure(calendars: [CalendarEntry], zone: String, windowHours: Int) {
        paths = calendars.map(\.path)
        configuredNames = [:]
        defaultAlarms = [:]
        colors = [:]
        for calendar in calendars {
            if let color = calendar.color, colors[calendar.path] == nil { colors[calendar.path] = color }
            if let name = calendar.name, configuredNames[calendar.path] == nil { configuredNames[calendar.path] = name }
            if !calendar.alarms.isEmpty, defaultAlarms[calendar.path] == nil { defaultAlarms[calendar.path] = calendar.alarms }
        }
        zoneName = zone
        windowSeconds = Int64(windowHours) * 3600
        read()
    }

    /// inotify says something changed in a watched folder: read again once it settles, and
    /// no later than `longestSettleSeconds` after the burst's first change.
    func handle(events: UInt32) {
        inotify.drain()
        let now = Posix.monotonicSeconds()
        let first = burstStartedAt ?? now
        burstStartedAt = first
        debounce.arm(after: max(0.001, min(Self.settleSeconds, first + Self.longestSettleSeconds - now)), repeating: false)
    }

    /// Watches the paths again and has every calendar read and expanded. The reader's window
    /// begins at the hour and lasts an hour longer than the configured one, so that files
    /// read earlier in the hour stay valid (`CalendarCache`); what is shown is cut to the
    /// configured window from now.
    private func read() {
        burstStartedAt = nil
        watches.watch(folders: paths)
        let now = Int64(clock.unixSeconds)
        var job = ReaderJob(zone: zoneName, now: now - Self.intoTheHour(now))
        job.windowSeconds = windowSeconds.addingClamped(3600)
        job.calendars = paths
        reader.submit(job)
    }

    /// Seconds since the hour began (0–3599, for times before 1970 too).
    private static func intoTheHour(_ now: Int64) -> Int64 { ((now % 3600) + 3600) % 3600 }

    /// On the loop's thread: the events go to the Responder; new problems to the log.
    private func apply(_ reading: ReaderResult) {
        // Each calendar's name: the config's, its own, else its folder's or file's; one that
        // reads as zaoan's own source (`live`, `festival`) is renamed, and that is a problem.
        var renamed: [String] = []
        let names = paths.map { path in
            let (name, problem) = CalendarName.unreserved(configuredNames[path] ?? reading.names[path] ?? CalendarName.fallback(forPath: path),
                                                          path: path)
            if let problem, !renamed.contains(problem.description) { renamed.append(problem.description) }
            return name
        }
        let room = max(0, ReaderResult.keptProblems - reading.problems.count)
        let found = reading.problems + renamed.prefix(room)
        let notKept = reading.problemsNotKept + (renamed.count - min(renamed.count, room))
        let known = Set(problems)
        let new = found.filter { !known.contains($0) }
        for problem in new.prefix(Self.problemsLoggedPerReading) {
            Log.warning("calendar: \(problem); the other events still show")
        }
        if new.count > Self.problemsLoggedPerReading || notKept > 0 {
            Log.warning("calendar: \(new.count - min(new.count, Self.problemsLoggedPerReading) + notKept) more problems in this reading are not logged; `zaoan ask stats` counts them")
        }
        problems = found
        problemsNotKept = notKept
        sourcesLoaded = reading.loaded
        sourcesWaiting = reading.waiting
        filesParsed = reading.readFiles.count
        filesUnchanged = reading.unchangedFiles.count
        let now = Int64(clock.unixSeconds)
        // A clock outside the years a calendar is read for: the reader read nothing and said so.
        let shown = (try? CalendarWindow(from: now, to: now.addingClamped(windowSeconds))).map { window in  // no window: nothing shown
            reading.events.filter { window.shows(start: $0.start, end: $0.end) }
        } ?? []
        let nameOfPath = Dictionary(zip(paths, names)) { first, _ in first }
        watch(reading)
        let owners = CalendarPaths(paths)
        onChange(shown.map { occurrence in
            let owner = owners.calendar(of: occurrence.source)
            var room = Self.room(occurrence, calendar: owner.flatMap { nameOfPath[$0] })
            if room.alarms.isEmpty, let owner, let alarms = defaultAlarms[owner] { room.alarms = alarms }
            room.color = owner.flatMap { colors[$0] }
            return room
        }, names)
        if paths.isEmpty {
            slide.disarm()
        } else {
            // The window moves on at every hour; a path whose folder is missing too is looked
            // for every minute (one whose folder exists is watched through it).
            let unwatched = watches.unwatchedFolders + watches.unwatchedPlaces
            slide.arm(after: unwatched > 0 ? 60 : Double(3600 - Self.intoTheHour(now)) + 0.5, repeating: false)
        }
    }

    /// Watches where the reading found its files can change unseen by their folders' watches
    /// (links' targets, hard-linked files); a reading that did not finish keeps the last ones.
    private func watch(_ reading: ReaderResult) {
        guard reading.finished else { return }
        watches.watch(places: reading.watchPlaces, beyond: reading.watchPlacesNotKept)
        let over = reading.watchPlaces.count + reading.watchPlacesNotKept - CalendarWatches.maxPlaces
        if over > 0, !placesOverflowLogged {
            Log.warning("calendar: links and hard links lead to \(over) more folders and files than the \(CalendarWatches.maxPlaces) watched beside the calendars' own; a change there shows within a minute")
        }
        placesOverflowLogged = over > 0
    }

    /// An occurrence as the Responder's rooms are: title (or the file's name), start, end,
    /// description, location and the calendar's name; the ID names its source and UID.
    static func room(_ occurrence: CalendarOccurrence, calendar: String?) -> LiveRoom {
        let name = Posix.splitPath(occurrence.source).name
        let title = occurrence.title.flatMap { $0.isEmpty ? nil : $0 } ?? name
        var room = LiveRoom(id: Request.calendarEventPrefix + String(occurrence.uid.prefix(Request.calendarEventUIDCharacters)), title: title,
                            start: Instant(secondsSince1970: Double(occurrence.start)),
                            end: occurrence.end > occurrence.start ? Instant(secondsSince1970: Double(occurrence.end)) : nil,
                            description: occurrence.description)
        room.source = occurrence.source
        room.url = occurrence.url
        room.join = occurrence.join
        room.location = occurrence.location
        room.calendar = calendar
        room.alarms = occurrence.alarms
        return room
    }
}
