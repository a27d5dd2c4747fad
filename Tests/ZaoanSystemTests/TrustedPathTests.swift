import Glibc
import Testing
@testable import ZaoanSystem

/// The walk `CalendarSource` opens calendar folders with, on a tree of real folders and
/// links under /tmp: what is followed, what is refused, and what each refusal names.
struct TrustedPathTests {
    /// A fresh folder under /tmp (mode 0700), removed with `rm -r` by `remove`.
    private struct Tree {
        let root: String

        init() throws {
            var template = Array("/tmp/zaoan-trusted-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { throw SystemError(errno: errno, "mkdtemp") }
            root = String(cString: made)
        }

        func folder(_ name: String, mode: mode_t = 0o755) -> String {
            let path = root + "/" + name
            mkdir(path, 0o700)
            chmod(path, mode)  // past the umask
            return path
        }

        func remove() { Self.remove(root) }

        /// Removes `path` and all it holds, without following a link.
        private static func remove(_ path: String) {
            var info = stat()
            guard lstat(path, &info) == 0 else { return }
            guard (info.st_mode & S_IFMT) == S_IFDIR, let stream = opendir(path) else {
                unlink(path)
                return
            }
            var names: [String] = []
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(stream)
            for name in names { remove(path + "/" + name) }
            rmdir(path)
        }
    }

    private func walk(_ path: String, trust: FileTrust = FileTrust()) -> Result<stat, TrustedPath.Failure> {
        Result { () throws(TrustedPath.Failure) in
            let folder = try TrustedPath.openFolder(path, trust: trust)
            var info = stat()
            fstat(folder.rawValue, &info)
            return info
        }
    }

    private func inode(_ path: String) -> ino_t {
        var info = stat()
        stat(path, &info)
        return info.st_ino
    }

    @Test("folders, the user's links (absolute, relative, through ..) and a sticky folder on the way are walked; the folder at the end is left to the caller")
    func followsWhatIsTrusted() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let end = tree.folder("a")
        _ = tree.folder("a/b", mode: 0o777)  // writable by all, but the end: the caller's rule
        let sticky = tree.folder("s", mode: 0o1777)
        _ = tree.folder("s/own")
        #expect(symlink(end, tree.root + "/abs") == 0 && symlink("a/../a/b", tree.root + "/rel") == 0)
        #expect(try walk(tree.root + "/a/b").get().st_ino == inode(tree.root + "/a/b"))
        #expect(try walk(tree.root + "/abs/b").get().st_ino == inode(tree.root + "/a/b"), "an absolute link on the way")
        #expect(try walk(tree.root + "/rel").get().st_ino == inode(tree.root + "/a/b"), "a relative link through ..")
        #expect(try walk(sticky + "/own").get().st_ino == inode(sticky + "/own"), "a sticky folder on the way")
        #expect(try walk(tree.root + "/rel/").get().st_ino == inode(tree.root + "/a/b"), "a trailing slash")
    }

    @Test("a folder on the way others may write, a missing part, a file, a loop of links: each named")
    func refusesAndNames() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let writable = tree.folder("open", mode: 0o777)
        _ = tree.folder("open/cal")
        guard case .failure(.untrusted(let place, "folder", let why)) = walk(writable + "/cal") else {
            Issue.record("\(walk(writable + "/cal"))")
            return
        }
        #expect(place == writable && why == "writable by every account (mode 777)", "\(place): \(why)")
        let group = tree.folder("group", mode: 0o1775)  // sticky, and the user's: on the way, fine
        _ = tree.folder("group/cal")
        #expect((try? walk(group + "/cal").get()) != nil)  // nil: a failure, which the expectation reports

        guard case .failure(.missing(let missing)) = walk(tree.root + "/none/cal") else { Issue.record("missing"); return }
        #expect(missing == tree.root + "/none")
        let file = tree.root + "/file.ics"
        close(open(file, O_CREAT | O_WRONLY, 0o644))
        guard case .failure(.notFolder(let last, isLast: true)) = walk(file) else { Issue.record("a file at the end"); return }
        #expect(last == file)
        guard case .failure(.notFolder(_, isLast: false)) = walk(file + "/x") else { Issue.record("a file on the way"); return }
        #expect(symlink(tree.root + "/loop", tree.root + "/loop") == 0)
        guard case .failure(.system(let error)) = walk(tree.root + "/loop/x") else { Issue.record("a loop"); return }
        #expect(error.errno == ELOOP)
    }

    @Test("a link or a folder on the way that another account owns is refused, and not followed", .enabled(if: geteuid() == 0, "chown needs root"))
    func refusesOtherAccounts() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let secret = tree.folder("secret", mode: 0o700)
        #expect(symlink(secret, tree.root + "/theirs") == 0 && lchown(tree.root + "/theirs", 65534, 65534) == 0)
        guard case .failure(.untrusted(let place, "symbolic link", let why)) = walk(tree.root + "/theirs") else { Issue.record("a link of theirs"); return }
        #expect(place == tree.root + "/theirs" && why.hasPrefix("owned by uid 65534"), "\(why)")
        let folder = tree.folder("nobody")
        _ = tree.folder("nobody/cal")
        #expect(chown(folder, 65534, 65534) == 0)
        guard case .failure(.untrusted(let owner, "folder", _)) = walk(folder + "/cal") else { Issue.record("a folder of theirs"); return }
        #expect(owner == folder)
    }
}
