import CLinux
import Glibc

/// Opening a folder by its path so that no other account can lead the opening somewhere
/// else. `open(path)` follows a link in any component and `fstat` then sees only where it
/// ended: whoever can write `/x` can swap `/x/y` for a link to the user's private folder, or
/// make `/x/y` a link before it exists. Here the path is walked one component at a time,
/// each opened `zaoan_o_path | O_NOFOLLOW` relative to the folder before it (from `/`, or from a
/// folder the caller already holds), and each folder on the way is checked, as opened, by
/// `FileTrust.problemOnTheWay`: it is the service's user's or root's, and no one else can
/// write it, except through the sticky bit (`/tmp`), where only an entry's owner can move
/// or remove it. A symbolic link on the way is followed only when it is the user's or
/// root's (it sits in a folder already checked, so no one else could have put it there);
/// its target is walked by the same rules, at most `maxLinks` links in all.
///
/// The folder at the end is not checked here: what its caller reads in it decides the
/// rule (a folder whose files are read must be writable by no one else at all,
/// `FileTrust.problem`). Everything is then opened relative to the descriptor returned,
/// so a swap after the walk changes nothing.
public enum TrustedPath {
    public enum Failure: Error, Sendable {
        /// `place` (the path walked so far, ending in the missing name) does not exist.
        case missing(String)
        /// `place` is a file or something else, not a folder; `isLast` when it is what the
        /// path itself names (the caller may then read it as a file, in its folder).
        case notFolder(String, isLast: Bool)
        /// Another account could change `place`, a folder or a symbolic link on the way:
        /// what it is (`kind`) and why (`FileTrust`'s words, "owned by uid 1001, ...").
        case untrusted(place: String, kind: String, why: String)
        /// More than `maxLinks` links, a name too long, a failed call.
        case system(SystemError)
    }

    /// The links followed in one walk at most, as the kernel's MAXSYMLINKS.
    public static let maxLinks = 40

    /// Opens the folder `path` names (`O_RDONLY | O_DIRECTORY`), every folder and link on
    /// the way checked as the type's summary says.
    /// - Parameters:
    ///   - path: absolute, or relative to `start`.
    ///   - start: the folder a relative path starts from (a folder the caller checked).
    ///   - base: `start`'s path, for the places named in failures.
    public static func openFolder(_ path: String, relativeTo start: Int32 = AT_FDCWD, named base: String = ".",
                                  trust: FileTrust) throws(Failure) -> Descriptor {
        var walk = try Walk(path, start: start, base: base, trust: trust)
        while let name = walk.pending.popLast() {
            if name.isEmpty || name == "." { continue }
            let isLast = walk.pending.allSatisfy { $0.isEmpty || $0 == "." }
            let place = walk.place(after: name)
            let next = try system(missing: place) { () throws(SystemError) in
                try Descriptor.open(String(name), in: walk.current.rawValue, zaoan_o_path | O_NOFOLLOW, "opening \(place)")
            }
            let info = try system { () throws(SystemError) in try next.status("checking \(place)") }
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                if let owner = trust.ownerProblem(info) { throw .untrusted(place: place, kind: "symbolic link", why: owner) }
                try walk.follow(next, at: place)
            case S_IFDIR:
                if !isLast, let why = trust.problemOnTheWay(info) { throw .untrusted(place: place, kind: "folder", why: why) }
                walk.enter(next, at: place)
            default:
                throw .notFolder(place, isLast: isLast)
            }
        }
        return try system { () throws(SystemError) in
            try Descriptor.open(".", in: walk.current.rawValue, O_RDONLY | O_DIRECTORY | O_NONBLOCK, "opening \(walk.place)")
        }
    }

    /// `body`'s value, its failure as a `Failure`: ENOENT as `.missing(missing)` when given.
    private static func system<Value: ~Copyable>(missing: String? = nil, _ body: () throws(SystemError) -> Value) throws(Failure) -> Value {
        do throws(SystemError) {
            return try body()
        } catch {
            if let missing, error.errno == ENOENT { throw .missing(missing) }
            throw .system(error)
        }
    }

    /// Where a walk is: the folder it holds, its path, and the names still to walk (last
    /// first, so a link's target goes on top).
    private struct Walk: ~Copyable {
        var current: Descriptor
        var place: String
        var pending: [Substring]
        var links = 0

        let trust: FileTrust

        /// From `/` for an absolute path, else from `start` (its caller checked it).
        init(_ path: String, start: Int32, base: String, trust: FileTrust) throws(Failure) {
            self.trust = trust
            pending = path.split(separator: "/", omittingEmptySubsequences: false).reversed()
            let absolute = path.hasPrefix("/")
            place = absolute ? "/" : base
            current = try absolute ? Self.root(trust) : TrustedPath.system { () throws(SystemError) in
                try Descriptor.open(".", in: start, zaoan_o_path | O_DIRECTORY, "opening \(base)")
            }
        }

        /// `/`, checked as any folder on the way.
        private static func root(_ trust: FileTrust) throws(Failure) -> Descriptor {
            let root = try TrustedPath.system { () throws(SystemError) in try Descriptor.open("/", zaoan_o_path | O_DIRECTORY, "opening /") }
            let info = try TrustedPath.system { () throws(SystemError) in try root.status("checking /") }
            if let why = trust.problemOnTheWay(info) { throw .untrusted(place: "/", kind: "folder", why: why) }
            return root
        }

        /// `name`'s path after this walk's place; `..` is the physical parent (links are
        /// expanded as they are met, so the place is always a real path).
        func place(after name: Substring) -> String {
            if name == ".." {
                let (folder, _) = Posix.splitPath(place)
                return place == "/" ? "/" : folder
            }
            return place.hasSuffix("/") ? place + name : place + "/" + name
        }

        mutating func enter(_ folder: consuming Descriptor, at place: String) {
            current = folder
            self.place = place
        }

        /// Puts the link's target in front of what is left, from `/` when it is absolute.
        mutating func follow(_ link: borrowing Descriptor, at place: String) throws(Failure) {
            links += 1
            guard links <= TrustedPath.maxLinks else {
                throw .system(SystemError(errno: ELOOP, "following \(place): more than \(TrustedPath.maxLinks) symbolic links"))
            }
            let target: String
            // An zaoan_o_path descriptor of the link itself: "" reads it, not whatever is there now.
            do throws(SystemError) { target = try Posix.readLink("", in: link.rawValue) } catch { throw .system(error) }
            pending += target.split(separator: "/", omittingEmptySubsequences: false).reversed()
            guard target.hasPrefix("/") else { return }
            current = try Self.root(trust)
            self.place = "/"
        }
    }
}
