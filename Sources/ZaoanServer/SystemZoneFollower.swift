import Glibc
import ZaoanCore

/// The machine's zone, followed while the config sets neither `timezone` nor `city` and the
/// service's environment has no `TZ` (the server decides; `Server+SystemZone.swift`).
///
/// Two inotify watches, one descriptor on the loop:
/// - the folder `/etc`, for the name `localtime`: `timedatectl set-timezone` makes a new link
///   and renames it over the old one, so a watch on the link (or on what it points to)
///   would never see the change; `ln -sf` removes and creates it;
/// - the folder of the zone file the link leads to (`/usr/share/zoneinfo/Asia`), for that
///   file's name: a tzdata upgrade renames new files over the old ones.
///
/// Events are only noted: the link is read `settleSeconds` after the first of a burst (the
/// two halves of `ln -sf` land together; a storm of events costs at most one reading per
/// `settleSeconds`). The zone is read from the link itself (`ZoneLink`, as systemd's
/// `get_timezone` reads it) and its rules from the zone file read anew
/// (`ZoneInfoStore.refresh`), not from a zone kept since the start. A link that leads nowhere, or to
/// something that is not a zone, leaves the zone in force and says so once in the log.
final class SystemZoneFollower: EventHandler {
    private let inotify: Inotify
    private var settle: MonotonicTimer!
    private let onChange: (Zone) -> Void
    /// The watch on `ZoneLink.folder`, while there is one.
    private var linkWatch: Int32?
    /// The watch on the zone file's folder, and the file's name in it.
    private var fileWatch: (watch: Int32, name: String)?
    /// The zone in force, while following; nil while not.
    private(set) var zone: Zone?
    /// Times a new zone, or new rules for it, were put in force (`stats`: `system_zone_changes`).
    private(set) var changes = 0
    /// The last problem logged, so that one broken link is said once, not on every event.
    private var lastProblem: String?
    private var linkWatchProblemLogged = false
    static let settleSeconds = 0.05

    /// Anything in `/etc` that can replace the link; the link itself is never watched.
    private static let linkMask = UInt32(IN_CREATE | IN_DELETE | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_ONLYDIR)
    private static let fileMask = UInt32(IN_CREATE | IN_DELETE | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_ONLYDIR)

    /// - Parameter onChange: takes the new zone, on the loop, once per change.
    init(loop: EventLoop, onChange: @escaping (Zone) -> Void) throws(SystemError) {
        self.onChange = onChange
        inotify = try Inotify("following the machine's zone")
        try loop.register(inotify.rawValue, events: EventLoop.readable, handler: self)
        settle = try MonotonicTimer(loop: loop) { [unowned self] in self.check() }
    }

    /// Starts following (at start, or when a reload leaves the zone to the machine again)
    /// and returns the zone to put in force: the one the link names now, else `inForce`.
    /// While following already, the zone followed.
    func start(inForce: Zone) -> Zone {
        if let zone { return zone }
        zone = inForce
        do throws(SystemError) {
            linkWatch = try inotify.watch(ZoneLink.folder, mask: Self.linkMask)
        } catch {
            if !linkWatchProblemLogged {
                Log.warning("the machine's zone: cannot watch \(ZoneLink.folder) (\(error)); a new zone in \(ZoneLink.path) shows after a restart. Set \"timezone\" in the config to choose the zone")
            }
            linkWatchProblemLogged = true
        }
        if case .zone(let found, _, let file) = read() {
            watch(file: file)
            zone = found
        }
        return zone ?? inForce
    }

    /// Stops following: a `timezone` or `city` now gives the zone.
    func stop() {
        guard zone != nil else { return }
        zone = nil
        lastProblem = nil
        settle.disarm()
        if let linkWatch { inotify.remove(linkWatch) }
        if let fileWatch { inotify.remove(fileWatch.watch) }
        linkWatch = nil
        fileWatch = nil
    }

    /// Notes the events that concern the link or the zone file; the reading waits for the
    /// burst to settle.
    func handle(events: UInt32) {
        var due = false
        inotify.drain { event in
            if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                due = true  // events were lost: one of them may have been ours
            } else if event.watch == linkWatch {
                if event.mask & UInt32(IN_IGNORED) != 0 {
                    linkWatch = nil
                    Log.warning("the machine's zone: \(ZoneLink.folder) went away; a new zone in \(ZoneLink.path) shows after a restart")
                } else if event.name == ZoneLink.name {
                    due = true
                }
            } else if let file = fileWatch, event.watch == file.watch {
                if event.mask & UInt32(IN_IGNORED) != 0 {
                    fileWatch = nil  // its folder went away: watched again after the reading
                    due = true
                } else if event.name == file.name {
                    due = true
                }
            }
        }
        if due, zone != nil, !settle.armed { settle.arm(after: Self.settleSeconds, repeating: false) }
    }

    /// Reads the link and the zone file, and puts a new zone (or new rules) in force.
    private func check() {
        guard let current = zone else { return }
        switch read() {
        case .problem(let why):
            if why != lastProblem {
                Log.warning("the machine's zone: \(why); the zone stays \(current.identifier). Point \(ZoneLink.path) at a zone (timedatectl set-timezone Europe/Berlin), or set \"timezone\" in the config")
            }
            lastProblem = why
        case .zone(let found, let rulesChanged, let file):
            lastProblem = nil
            watch(file: file)
            let renamed = found.identifier != current.identifier
            guard renamed || rulesChanged else { return }
            zone = found
            changes += 1
            Log.info(renamed ? "the machine's zone is now \(found.identifier) (\(ZoneLink.path)); answers and watches use it"
                             : "the zone file of \(found.identifier) changed (a tzdata upgrade); answers and watches use its new rules")
            onChange(found)
        }
    }

    private enum Reading {
        /// The zone, whether its rules differ from the ones kept before, and its file.
        case zone(Zone, rulesChanged: Bool, file: String)
        case problem(String)
    }

    /// The zone the link names, with its rules read anew; or what is wrong with it.
    private func read() -> Reading {
        let link = ZoneLink.path
        let target: String
        do throws(SystemError) {
            target = try Posix.readLink(link)
        } catch {
            switch error.errno {
            case ENOENT: return .problem("\(link) is missing")
            case EINVAL: return .problem("\(link) is not a symbolic link into \(ZoneInfoStore.shared.directory)")
            default: return .problem("cannot read \(link): \(error)")
            }
        }
        let shown = RequestParser.shorten(SafeText.visible(target))
        guard let name = ZoneLink.zoneName(target: target, zoneinfo: ZoneInfoStore.shared.directory) else {
            return .problem("\(link) points to '\(shown)', which is not a zone in \(ZoneInfoStore.shared.directory)")
        }
        let rulesChanged: Bool
        do throws(ZoneInfoError) {
            rulesChanged = try ZoneInfoStore.shared.refresh(named: name)
        } catch {
            return .problem("\(link) points to '\(shown)', whose zone cannot be read: \(error)")
        }
        // The zone in force is kept as it is when the link names it again.
        guard let zone = name == zone?.identifier ? zone : Zone.named(name) else {
            return .problem("\(link) points to '\(shown)', a zone this system's time library does not know")
        }
        return .zone(zone, rulesChanged: rulesChanged, file: ZoneInfoStore.shared.directory + "/" + name)
    }

    /// Watches the folder the zone file really is in (the file may be a link itself), for
    /// that file's name; the last such watch goes.
    private func watch(file path: String) {
        // A path that does not resolve is watched as named: its folder's events still come.
        let real = (try? Posix.resolvedPath(path)) ?? path
        let (folder, name) = Posix.splitPath(real)
        // The same number for the same folder. None (the folder is gone or unreadable): a
        // rewrite of the zone file then shows with the link's next change, as said below.
        let watch = try? inotify.watch(folder, mask: Self.fileMask)
        if let old = fileWatch, old.watch != watch, old.watch != linkWatch { inotify.remove(old.watch) }
        fileWatch = watch.map { (watch: $0, name: name) }  // none: a change of the file shows with the link's next
    }
}
