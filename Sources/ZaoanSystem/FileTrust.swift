import Glibc

/// Whether anyone but the service's user and root could change a file or folder: the rule
/// `serve` applies to its state directory, for what zaoan reads from places it does not
/// make itself (calendar folders another program syncs). It must belong to the user or to
/// root (root-owned /etc/zaoan/calendars is fine for the system instance), and be writable
/// by neither its group nor everyone: whoever can write a folder can replace or plant any
/// file in it, a symbolic link to the service's own private files among them.
public struct FileTrust: Sendable {
    /// The service's user.
    public let user: uid_t

    public init(user: uid_t = geteuid()) {
        self.user = user
    }

    /// Why an account other than `user` and root could write `info`'s file or folder (or
    /// replace what is in it), said after its kind ("a folder ..."); nil when none could.
    public func problem(_ info: stat) -> String? {
        if let owner = ownerProblem(info) { return owner }
        let mode = "mode " + String(info.st_mode & 0o7777, radix: 8)
        if info.st_mode & 0o002 != 0 { return "writable by every account (\(mode))" }
        if info.st_mode & 0o020 != 0 { return "writable by the members of group \(info.st_gid) (\(mode))" }
        return nil
    }

    /// Why an account other than `user` and root could change what a folder on the way to
    /// another holds (`TrustedPath`): `problem`'s rule, except that a folder others may write
    /// is allowed when it has the sticky bit (`/tmp`, mode 1777) and is the user's or root's.
    /// There only an entry's owner, the folder's owner or root can rename or remove an entry,
    /// and the next component is checked in turn (the user's or root's, so no one else's
    /// folder or link made in its place before it existed is taken); nil when none could.
    public func problemOnTheWay(_ info: stat) -> String? {
        if ownerProblem(info) == nil, info.st_mode & 0o1000 != 0 { return nil }  // S_ISVTX
        return problem(info)
    }

    /// Why `info`'s owner is neither `user` nor root, or nil. (The only check that means
    /// anything for a symbolic link, whose own mode is always 0777.)
    public func ownerProblem(_ info: stat) -> String? {
        guard info.st_uid != user && info.st_uid != 0 else { return nil }
        return "owned by uid \(info.st_uid), not by \(user == 0 ? "root" : "uid \(user) or root")"
    }
}
