import Glibc

/// The calendar feed's inotify watches. Each configured path is watched through its folder
/// (the path itself if it is one, else its parent), so an edit, a new or removed file and a
/// rename over one are seen. A file can also change where that watch sees nothing: a
/// symbolic link's target is edited or replaced in its own folder, a file with other hard
/// links is written through another name. Those places (`CalendarSource.watchPlaces`, as
/// the last reading found them) are watched too: a folder like a configured one, a
/// hard-linked file itself; at most `maxPlaces` of them, so a folder of links to 10,000
/// folders cannot use up the user's inotify watches (`fs.inotify.max_user_watches`). A
/// place past the bound, like a path whose folder is missing, is looked at once a minute.
struct CalendarWatches {
    /// The places watched beside the configured folders, at most.
    static let maxPlaces = 256

    private let inotify: Inotify
    /// Watch descriptors of the configured folders and of the places, with what they watch.
    private var folders: [Int32: String] = [:]
    private var places: [Int32: String] = [:]
    /// Configured paths whose folder could not be watched (not there yet).
    private(set) var unwatchedFolders = 0
    /// Places not watched: past `maxPlaces`, or gone, or refused by inotify.
    private(set) var unwatchedPlaces = 0

    private static let folderMask = UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM
                                           | IN_DELETE_SELF | IN_MOVE_SELF | IN_ATTRIB | IN_ONLYDIR)
    /// A file's own watch: written, closed after writing, chmod/chown or its link count
    /// (a name of it removed or renamed over), removed or moved.
    private static let fileMask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)

    init(inotify: Inotify) {
        self.inotify = inotify
    }

    /// Watches each path's folder: one already watched keeps its watch (inotify_add_watch
    /// returns the same one), one no longer wanted (paths changed, a folder replaced) loses it.
    mutating func watch(folders paths: [String]) {
        let old = folders
        folders = [:]
        unwatchedFolders = 0
        for path in paths {
            var info = stat()
            let isFolder = stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            let folder = isFolder ? path : Posix.splitPath(path).folder
            // A folder that cannot be watched (gone, unreadable, out of watches) is counted, not
            // an error: CalendarFeed then looks for its calendars every minute instead.
            if let descriptor = try? inotify.watch(folder, mask: Self.folderMask) { folders[descriptor] = folder } else { unwatchedFolders += 1 }
        }
        drop(old)
    }

    /// Watches the first `maxPlaces` of `wanted` (by name, so the same ones each time) and
    /// no other place; `beyond` more were found and not even kept.
    mutating func watch(places wanted: Set<String>, beyond: Int) {
        let old = places
        places = [:]
        let sorted = wanted.sorted()
        unwatchedPlaces = max(0, sorted.count - Self.maxPlaces) + beyond
        for place in sorted.prefix(Self.maxPlaces) {
            do throws(SystemError) {
                places[try inotify.watch(place, mask: Self.folderMask)] = place
            } catch where error.errno == ENOTDIR {
                // Counted as above: an unwatched place is looked at every minute.
                if let descriptor = try? inotify.watch(place, mask: Self.fileMask) { places[descriptor] = place } else { unwatchedPlaces += 1 }
            } catch {
                unwatchedPlaces += 1
            }
        }
        drop(old)
    }

    /// Removes the watches of `old` that neither list holds now (a place may be a
    /// configured folder too: one watch serves both).
    private mutating func drop(_ old: [Int32: String]) {
        for descriptor in old.keys where folders[descriptor] == nil && places[descriptor] == nil {
            inotify.remove(descriptor)
        }
    }
}
