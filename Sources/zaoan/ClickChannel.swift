import Glibc
import ZaoanProtocol
import ZaoanSystem

/// How `zaoan click` reaches the `zaoan watch` processes showing a block. A bar that runs a
/// command per module (waybar's custom modules) runs its click commands as processes of
/// their own, while what a click steps (the ticker's room, the clock's pattern) lives in
/// the watch: so each watch makes a FIFO named `BLOCK.PID` in a folder of the user's own,
/// reads action words from it (`next`, one a line), and removes it when it exits; `zaoan
/// click` writes the word into each FIFO of the block.
///
/// A FIFO rather than a pid file and a signal: only a process that holds it open reads what
/// is written into it, so no pid can be reused under a click, and a FIFO whose watch was
/// killed (nobody holds it open) is told apart at once — opening it to write fails with
/// ENXIO, and the clicking process removes it. The word says which action, where a signal
/// would need one number per action.
///
/// The folder is `$XDG_RUNTIME_DIR/zaoan-clicks`, else `/run/user/UID/zaoan-clicks`; with
/// neither (no login session: no bar to click either) a watch takes no clicks, and never
/// falls back to a shared folder such as /tmp. It must be a folder, not a symbolic link,
/// owned by the user and closed to everyone else (no group or other bits), or both sides
/// refuse it and say why: another account could otherwise make it first, or plant a link or
/// a FIFO of its own.
/// Everything in it is opened relative to the checked folder, never following a link, and
/// checked again once open (a FIFO, the user's own).
enum ClickChannel {
    static let folderName = "zaoan-clicks"
    /// The longest line a watch takes from its FIFO; the action words are far shorter.
    static let maxLine = 64

    /// The folder's path; nil when the user has no runtime folder.
    static func folderPath(environment: [String: String], uid: uid_t = getuid()) -> String? {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return (runtime.hasSuffix("/") ? runtime : runtime + "/") + folderName
        }
        var info = stat()
        if stat("/run/user/\(uid)", &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            return "/run/user/\(uid)/" + folderName
        }
        return nil
    }

    static let noFolder = "neither XDG_RUNTIME_DIR nor /run/user/UID is there, where zaoan watch and zaoan click meet"


    /// Opens the folder (creating it, mode 0700, when `create`) and checks it: a folder, not a
    /// link, the user's own, nothing for group or others.
    static func openFolder(_ path: String, create: Bool) throws(SystemError) -> Descriptor {
        if create {
            do throws(SystemError) {
                _ = try syscall("creating the click folder \(path)") { mkdir(path, 0o700) }  // 0 on success; errors throw
            } catch where error.errno == EEXIST {}  // there already: checked below
        }
        let folder = try Descriptor.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, "opening the click folder \(path) (a symbolic link is refused)")
        let info = try folder.status("checking the click folder \(path)")
        guard info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            throw SystemError(errno: EPERM, "the click folder \(path) must be owned by you (it is uid \(info.st_uid)'s) with mode 0700 (it is "
                              + String(info.st_mode & 0o7777, radix: 8) + "); remove it")
        }
        return folder
    }

    /// The FIFO's name: the block's request word (a space as `_`: `live_list`), a dot, the pid.
    static func fileName(block: String, pid: pid_t) -> String {
        prefix(block) + String(pid)
    }

    /// Whether `name` is a FIFO name of `block`'s (a temporary name never is).
    static func isName(_ name: String, of block: String) -> Bool {
        let start = prefix(block)
        guard name.hasPrefix(start) else { return false }
        let pid = name.dropFirst(start.count)
        return !pid.isEmpty && pid.count <= 10 && pid.allSatisfy { $0.isASCII && $0.isNumber }
    }

    private static func prefix(_ block: String) -> String {
        String(block.map { $0 == " " ? "_" : $0 }) + "."
    }

    /// Whether an open (or, through `fstatat`, a named) file is a FIFO of the user's own.
    static func isOwnFIFO(_ info: stat) -> Bool {
        (info.st_mode & S_IFMT) == S_IFIFO && info.st_uid == getuid()
    }
}
