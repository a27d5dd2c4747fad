import Glibc
import Testing
@testable import ZaoanSystem

/// A fresh folder of the test's own.
private func makeFolder() throws -> String {
    var template = Array("/tmp/zaoan-durable-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw syscallFailure("mkdtemp") }
    return String(cString: made)
}

private func open(_ path: String) throws -> Descriptor {
    try Descriptor.open(path, O_RDONLY | O_DIRECTORY, "opening \(path)")
}

private func names(in path: String) -> [String] {
    guard let handle = opendir(path) else { return [] }
    defer { closedir(handle) }
    var found: [String] = []
    while let entry = readdir(handle) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        if name != "." && name != ".." { found.append(name) }
    }
    return found.sorted()
}

private func contents(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    while case let byte = fgetc(file), byte != EOF { bytes.append(UInt8(byte)) }
    return String(decoding: bytes, as: UTF8.self)
}

private func removeAll(_ path: String) {
    for name in names(in: path) { unlink(path + "/" + name) }
    rmdir(path)
}

@Suite("The one durable write: whole or not at all")
struct DurableFileTests {
    @Test("a new file and a replaced one hold exactly the bytes, mode 0600, and no temporary file is left")
    func writesAndReplaces() throws {
        let path = try makeFolder()
        let folder = try open(path)
        defer { removeAll(path) }
        #expect(try DurableFile.replace("state.json", in: folder, path: path, temporaryName: "t1", with: Array("first".utf8)) == nil)
        #expect(try DurableFile.replace("state.json", in: folder, path: path, temporaryName: "t2", with: Array("second".utf8)) == nil)
        #expect(names(in: path) == ["state.json"])
        #expect(contents(path + "/state.json") == "second")
        var info = stat()
        #expect(stat(path + "/state.json", &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test("a link planted where the temporary file goes is refused, not followed; the old file stays")
    func plantedLinkIsRefused() throws {
        let path = try makeFolder()
        let folder = try open(path)
        defer { removeAll(path) }
        _ = try DurableFile.replace("state.json", in: folder, path: path, temporaryName: "t1", with: Array("old".utf8))
        let target = path + "/elsewhere"
        #expect(symlink(target, path + "/t2") == 0)
        let error = #expect(throws: SystemError.self) {
            _ = try DurableFile.replace("state.json", in: folder, path: path, temporaryName: "t2", with: Array("new".utf8))
        }
        #expect(error?.errno == EEXIST && error?.operation == "creating \(path)/t2")
        #expect(contents(path + "/state.json") == "old")
        #expect(contents(target) == nil, "nothing was written through the link")
    }

    @Test("a rename that fails removes the temporary file and leaves the folder as it was")
    func failedRenameLeavesNothing() throws {
        let path = try makeFolder()
        let folder = try open(path)
        defer { removeAll(path) }
        #expect(mkdir(path + "/state.json", 0o700) == 0)
        #expect(mkdir(path + "/state.json/inside", 0o700) == 0)  // a folder that is not empty: rename fails
        defer { rmdir(path + "/state.json/inside"); rmdir(path + "/state.json") }
        let error = #expect(throws: SystemError.self) {
            _ = try DurableFile.replace("state.json", in: folder, path: path, temporaryName: "t1", with: Array("new".utf8))
        }
        #expect(error?.errno == EISDIR && error?.operation == "renaming \(path)/t1 to state.json")
        #expect(names(in: path) == ["state.json"])
    }

    @Test("a write that fails (a full disk, here a file size limit) removes the temporary file")
    func failedWriteLeavesNothing() async throws {
        // Under RLIMIT_FSIZE the write fails with EFBIG (SIGXFSZ ignored); in a child, so the
        // limit and the ignored signal stay there.
        await #expect(processExitsWith: .success) {
            let path = try makeFolder()
            let folder = try open(path)
            defer { removeAll(path) }
            signal(SIGXFSZ, SIG_IGN)
            var limit = rlimit(rlim_cur: 4, rlim_max: 4)
            setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)
            do {
                _ = try DurableFile.replace("state.json", in: folder, path: path, temporaryName: "t1", with: Array("more than four".utf8))
                exit(2)
            } catch let error as SystemError {
                guard error.errno == EFBIG, error.operation == "writing \(path)/t1", names(in: path).isEmpty else { exit(3) }
            } catch {
                exit(4)
            }
        }
    }

    @Test("a folder's entries: no . or .., filtered, cut at the limit; the descriptor stays open; a file is no folder")
    func entryNames() throws {
        let path = try makeFolder()
        let folder = try open(path)
        defer { removeAll(path) }
        for name in ["a.ics", "b.ics", "c.txt", ".hidden.ics"] {
            let written = DurableFile.replaceForTest(name, in: folder, path: path)
            #expect(written)
        }
        #expect(try folder.entryNames("listing").sorted() == [".hidden.ics", "a.ics", "b.ics", "c.txt"])
        #expect(try folder.entryNames(where: { $0.hasSuffix(".ics") && !$0.hasPrefix(".") }, "listing").sorted() == ["a.ics", "b.ics"])
        #expect(try folder.entryNames(limit: 2, "listing").count == 2)
        #expect(try folder.entryNames("listing again").count == 4, "listing twice reads the folder from its start each time")
        #expect(fcntl(folder.rawValue, F_GETFD) != -1)
        let file = try Descriptor.open(path + "/a.ics", O_RDONLY, "opening")
        let error = #expect(throws: SystemError.self) { _ = try file.entryNames("listing a file") }
        #expect(error?.errno == ENOTDIR && error?.operation == "listing a file")
    }
}

private extension DurableFile {
    static func replaceForTest(_ name: String, in folder: borrowing Descriptor, path: String) -> Bool {
        // Not `try? … != nil`: a durable write returns nil, which try? would flatten into "failed".
        do {
            _ = try replace(name, in: folder, path: path, temporaryName: "t-" + name, with: [])
            return true
        } catch {
            return false
        }
    }
}
