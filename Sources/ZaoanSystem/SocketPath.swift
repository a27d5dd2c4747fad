import Glibc

/// Where the service listens and clients connect, when no `--socket` is given:
/// `$XDG_RUNTIME_DIR/zaoan.sock`, else `/run/user/<uid>/zaoan.sock` when that directory
/// exists, else `zaoan.sock` in a private directory `/tmp/zaoan-<uid>/`.
public enum SocketPath {
    public static let fileName = "zaoan.sock"

    public struct Resolved: Equatable, Sendable {
        public let path: String
        /// The private directory the server must create (0700) before binding, if any.
        public let privateDirectory: String?
    }

    public static func resolve(explicit: String?, environment: [String: String], uid: uid_t = getuid()) -> Resolved {
        if let explicit, !explicit.isEmpty {
            return Resolved(path: explicit, privateDirectory: nil)
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return Resolved(path: join(runtime, fileName), privateDirectory: nil)
        }
        let userRuntime = "/run/user/\(uid)"
        var info = stat()
        if stat(userRuntime, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            return Resolved(path: join(userRuntime, fileName), privateDirectory: nil)
        }
        let directory = "/tmp/zaoan-\(uid)"
        return Resolved(path: join(directory, fileName), privateDirectory: directory)
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// Creates the private fallback directory, or checks that an existing one is ours and
    /// closed to others — another user could otherwise plant a socket there.
    public static func preparePrivateDirectory(_ directory: String) throws(SystemError) {
        if mkdir(directory, 0o700) != 0 && Glibc.errno != EEXIST {
            throw SystemError(errno: Glibc.errno, "creating the socket directory \(directory)")
        }
        try checkPrivateDirectory(directory)
    }

    /// Checks that `directory` is a directory (not a link) owned by the user with no access
    /// for anyone else. Throws ENOENT when it does not exist.
    public static func checkPrivateDirectory(_ directory: String) throws(SystemError) {
        var info = stat()
        guard lstat(directory, &info) == 0 else {
            throw SystemError(errno: Glibc.errno, "checking the socket directory \(directory)")
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == getuid(), (info.st_mode & 0o077) == 0 else {
            throw SystemError(errno: EPERM, "the socket directory \(directory) must be a directory owned by you with mode 0700; remove it or pass --socket PATH")
        }
    }
}
