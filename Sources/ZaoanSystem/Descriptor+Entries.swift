import Glibc

extension Descriptor {
    /// The names in this open folder, without `.` and `..`, that `keep` accepts, in the
    /// order readdir gives them. Listing stops once `limit` names are kept: a folder of a
    /// million files costs no more than `limit` entries read past the ones skipped.
    ///
    /// readdir needs a DIR of its own, so it reads a duplicate of the descriptor, which
    /// closedir closes; this descriptor stays open. The two share a position, so each
    /// listing starts from the folder's first entry.
    /// - Throws: when the folder cannot be listed (no descriptor left for the duplicate, or
    ///   not a folder).
    public func entryNames(limit: Int = .max, where keep: (String) -> Bool = { _ in true },
                           _ operation: @autoclosure () -> String) throws(SystemError) -> [String] {
        let copy = Descriptor(taking: try syscall(operation()) { dup(rawValue) })
        guard let stream = fdopendir(copy.rawValue) else { throw syscallFailure(operation()) }  // `copy` closes the number
        _ = copy.release()  // closedir closes it now
        defer { closedir(stream) }
        rewinddir(stream)  // the duplicate shares the position: an earlier listing left it at the end
        var names: [String] = []
        while names.count < limit, let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != "..", keep(name) { names.append(name) }
        }
        return names
    }
}
