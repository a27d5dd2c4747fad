import Glibc

extension RegularFile {
    /// The bytes of `name` in `directory` (a folder the caller has checked with `trust`), read
    /// only if no account but the service's user and root could have written it.
    ///
    /// A symbolic link is followed only when the link belongs to the user or root and leads
    /// to a regular file of theirs, writable by no one else, in a folder no one else can
    /// write (so the user's own linked collections work, and a link planted by someone else
    /// never reads the user's private files for them). One link, not a chain (`.notRegular`). The target's
    /// folder is walked to from `directory` (`TrustedPath`: no one else's link or writable
    /// folder on the way) and checked as opened; the file is then opened relative to it
    /// with `O_NOFOLLOW`, so nothing swapped meanwhile is followed.
    /// - Throws: `.untrusted` saying what is refused and why; the other failures as `read`.
    public static func readTrusted(_ name: String, in directory: Int32, limit: Int, trust: FileTrust) throws(ReadFailure) -> [UInt8] {
        var link = stat()
        guard fstatat(directory, name, &link, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { throw .missing }
            throw .system(SystemError(errno: errno, "checking \(name)"))
        }
        guard (link.st_mode & S_IFMT) == S_IFLNK else {
            // Not a link now; one put there meanwhile is refused by O_NOFOLLOW.
            return try read(name, in: directory, limit: limit, followLinks: false, trust: trust)
        }
        if let owner = trust.ownerProblem(link) { throw .untrusted("a symbolic link \(owner)") }
        let target: String
        do throws(SystemError) { target = try Posix.readLink(name, in: directory) } catch {
            if error.errno == ENOENT { throw .missing }
            throw .system(error)
        }
        let (folderPath, file) = Posix.splitPath(target)
        let folder: Descriptor
        do throws(TrustedPath.Failure) {
            folder = try TrustedPath.openFolder(folderPath, relativeTo: directory, trust: trust)
        } catch {
            switch error {
            case .missing, .notFolder: throw .missing
            case .untrusted(let place, let kind, let why): throw .untrusted("a symbolic link to \(target), through \(place), a \(kind) \(why)")
            case .system(let failure): throw .system(failure)
            }
        }
        let info: stat
        do throws(SystemError) { info = try folder.status("checking \(folderPath)") } catch { throw .system(error) }
        if let why = trust.problem(info) { throw .untrusted("a symbolic link to \(target), whose folder is \(why)") }
        do throws(ReadFailure) {
            return try read(file, in: folder.rawValue, limit: limit, followLinks: false, trust: trust)
        } catch {
            switch error {
            case .untrusted(let why): throw .untrusted("a symbolic link to \(target), \(why)")
            case .notRegular(kind: "symbolic link"): throw .notRegular(kind: "symbolic link to another link (\(target)); one link is followed, not a chain")
            default: throw error
            }
        }
    }
}
