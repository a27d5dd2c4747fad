import Foundation
import Glibc
import ZaoanCalendar
import ZaoanCore

/// The config's `calendars` (`.ics` files and vdir folders), read through ZaoanCalendar
/// (libical), expanded for the window ahead and handed to the Responder, where the events
/// count like rooms. Watched with inotify: an edit, a new or removed file, or an atomic
/// rename-over is read again 200 ms after the last change (a sync writes many files at
/// once), so it shows within a second without a restart. Each configured path is watched
/// through its folder (a file's parent), so a file replaced by rename is still seen; a path
/// that does not exist yet is waited for, through its parent, or once a minute while even
/// the parent is missing. The window moves on once an hour.
///
/// Reading and expanding run on a thread of their own (`BackgroundWorker`), under
/// `LibICalLock`: a 10,000-event file takes ~0.2 s (bench/calendar.sh), which no client
/// waits for; the loop gets the events when they are ready. Watching stays on the loop.
final class CalendarFeed: EventHandler {
    private let loop: EventLoop
    private let inotify: Int32
    private var watched: [Int32: String] = [:]
    private var paths: [String] = []
    private var zoneName = "UTC"
    private var windowSeconds: Int64 = 48 * 3600
    private let onChange: ([LiveRoom]) -> Void
    private var debounce: MonotonicTimer!
    private var slide: MonotonicTimer!
    private var reader: BackgroundWorker<Work, Reading>!

    /// What the reader is asked to read, and what it found.
    struct Work: Sendable {
        let paths: [String]
        let zone: String
        let windowSeconds: Int64
        let now: Int64
    }

    struct Reading: Sendable {
        var events: [LiveRoom] = []
        var problems: [String] = []
        var loaded = 0
        var waiting = 0
    }
    /// What the last reading found, for `stats` and the log.
    private(set) var sourcesLoaded = 0
    private(set) var sourcesWaiting = 0
    private(set) var problems: [String] = []
    /// Paths whose folder could not be watched (not there yet): looked for every minute.
    private var unwatched = 0
    private let clock: TimeSource
    /// How long to wait after a change before reading (a sync writes many files).
    static let settleSeconds = 0.2

    init(loop: EventLoop, clock: TimeSource, onChange: @escaping ([LiveRoom]) -> Void) throws(SystemError) {
        self.loop = loop
        self.clock = clock
        self.onChange = onChange
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard inotify >= 0 else { throw SystemError(errno: errno, "watching calendar files (inotify_init1)") }
        try loop.register(inotify, events: EventLoop.readable, handler: self)
        debounce = try MonotonicTimer(loop: loop) { [unowned self] in self.read() }
        slide = try MonotonicTimer(loop: loop) { [unowned self] in self.read() }
        reader = try BackgroundWorker(loop: loop, purpose: "reading calendars", perform: Self.read) { [unowned self] reading in
            self.apply(reading)
        }
    }

    /// At exit: lets a reading in progress finish, then ends the reader's thread.
    func stop() { reader.stop() }

    /// Takes the settings' calendars and reads them: at start `now`, before the service says
    /// it is ready (no client waits yet, and the first answers already show the events);
    /// after `reload` on the reader's thread.
    func configure(paths: [String], zone: String, windowHours: Int, now: Bool = false) {
        self.paths = paths
        zoneName = zone
        windowSeconds = Int64(windowHours) * 3600
        if now {
            rewatch()
            apply(Self.read(work()))
        } else {
            read()
        }
    }

    /// What to read now.
    private func work() -> Work {
        Work(paths: paths, zone: zoneName, windowSeconds: windowSeconds, now: Int64(clock.unixSeconds))
    }

    /// inotify says something changed in a watched folder: read again once it settles.
    func handle(events: UInt32) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(inotify, $0.baseAddress, $0.count) }
            if count <= 0 { break }  // EAGAIN: drained
        }
        debounce.arm(after: Self.settleSeconds, repeating: false)
    }

    /// Watches the paths again and has every calendar read and expanded from now.
    private func read() {
        rewatch()
        reader.submit(work())
    }

    /// On the reader's thread: every calendar, expanded for the window.
    private static func read(_ work: Work) -> Reading {
        LibICalLock.run {
            var reading = Reading()
            let zone: CalendarZone
            do throws(CalendarZone.Failure) {
                zone = try CalendarZone(named: work.zone)
            } catch {
                zone = .utc
                reading.problems.append("the zone \(work.zone) cannot be read by libical (\(error)); floating and all-day times are read in UTC")
            }
            let window: CalendarWindow
            do throws(CalendarWindow.Failure) {
                window = try CalendarWindow(from: work.now, to: work.now + work.windowSeconds)
            } catch {
                reading.problems.append("the clock says \(work.now), outside the times a calendar is read for (\(error)); nothing read")
                return reading
            }
            for path in work.paths {
                switch CalendarSource(path: path).load() {
                case .waiting(let reason):
                    reading.waiting += 1
                    reading.problems.append(reason)
                case .loaded(let set):
                    reading.loaded += 1
                    let expansion = set.occurrences(in: window, defaultZone: zone)
                    reading.problems += (set.problems + expansion.problems).map(\.description)
                    reading.events += expansion.occurrences.map(room)
                }
            }
            return reading
        }
    }

    /// On the loop's thread: the events go to the Responder; new problems to the log.
    private func apply(_ reading: Reading) {
        for problem in reading.problems where !problems.contains(problem) {
            Log.warning("calendar: \(problem); the other events still show")
        }
        problems = reading.problems
        sourcesLoaded = reading.loaded
        sourcesWaiting = reading.waiting
        onChange(reading.events)
        if paths.isEmpty {
            slide.disarm()
        } else {
            // The window moves on every hour; a path whose folder is missing too is looked for
            // every minute (one whose folder exists is watched through it).
            slide.arm(after: unwatched > 0 ? 60 : 3600, repeating: false)
        }
    }

    /// Watches each path's folder (the path itself if it is one, else its parent): a folder
    /// already watched keeps its watch (inotify_add_watch returns the same one), one no
    /// longer wanted (paths changed, a folder replaced) loses it.
    private func rewatch() {
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM
                          | IN_DELETE_SELF | IN_MOVE_SELF | IN_ATTRIB | IN_ONLYDIR)
        var wanted: [Int32: String] = [:]
        unwatched = 0
        for path in paths {
            var info = stat()
            let isFolder = stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            let folder = isFolder ? path : (path as NSString).deletingLastPathComponent
            let descriptor = inotify_add_watch(inotify, folder, mask)
            if descriptor >= 0 { wanted[descriptor] = folder } else { unwatched += 1 }
        }
        for descriptor in watched.keys where wanted[descriptor] == nil { inotify_rm_watch(inotify, descriptor) }
        watched = wanted
    }

    /// An occurrence as the Responder's rooms are: title (or the file's name), start, end,
    /// description; the ID names its source and UID.
    static func room(_ occurrence: CalendarOccurrence) -> LiveRoom {
        let name = (occurrence.source as NSString).lastPathComponent
        let title = occurrence.title.flatMap { $0.isEmpty ? nil : $0 } ?? name
        var room = LiveRoom(id: "calendar:" + String(occurrence.uid.prefix(48)), title: title,
                            start: Date(timeIntervalSince1970: Double(occurrence.start)),
                            end: occurrence.end > occurrence.start ? Date(timeIntervalSince1970: Double(occurrence.end)) : nil,
                            description: occurrence.description ?? occurrence.location)
        room.source = occurrence.source
        room.url = occurrence.url
        return room
    }
}
