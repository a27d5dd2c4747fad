/// Which configured calendar a file was read for: the file itself, or the folder it is in
/// (a folder is read non-recursively, so `/a` does not own `/a/b/x.ics` when `/a/b` is
/// configured too). For the occurrence cap per calendar and for each event's calendar name.
struct CalendarPaths {
    private var byTrimmedPath: [String: String] = [:]

    init(_ calendars: [String]) {
        for path in calendars {
            let trimmed = Self.trimmingSlashes(path)
            if byTrimmedPath[trimmed] == nil { byTrimmedPath[trimmed] = path }
        }
    }

    /// The configured path `file` belongs to; nil for a file none of them names.
    func calendar(of file: String) -> String? {
        if let path = byTrimmedPath[file] { return path }
        let folder = file.lastIndex(of: "/").map { String(file[..<$0]) } ?? ""
        return byTrimmedPath[folder.isEmpty ? "/" : folder]
    }

    private static func trimmingSlashes(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }
}
