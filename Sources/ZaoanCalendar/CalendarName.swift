import ZaoanRecurrence
import Glibc
import ZaoanSystem
import ZaoanText

/// A calendar's own name, as the files name it: a vdir's `displayname` (the small file
/// vdirsyncer writes into a collection's folder when the pair syncs `metadata`), a single
/// file's `X-WR-CALNAME`. Either is text from someone else's server: read as calendar files
/// are, and shown as a title is (one line, safe, cut between scalars to
/// `CalendarNameRule`'s bounds). Without either, the folder's or the file's name stands.
public enum CalendarName {
    /// The most a `displayname` file may hold: a name is one short line, and a bigger file
    /// is not one.
    public static let displaynameBytes = 4096

    /// A name as it is shown: its first line, tabs as spaces (a name is a column of
    /// `schedule`), made safe and bounded; nil when nothing is left.
    public static func shown(_ raw: String) -> String? {
        let line = SafeText.trimmed(raw).unicodeScalars.prefix { !CalendarNameRule.isLineBreak($0) }
        let spaced = String(String.UnicodeScalarView(line.map { $0 == "\t" ? " " : $0 }))
        return CalendarText.oneLine(spaced, maxBytes: CalendarNameRule.maxBytes, maxCharacters: CalendarNameRule.maxCharacters)
    }

    /// The name of a calendar without one of its own: a folder's last component, a file's
    /// without `.ics` (`/home/me/holidays.ics` → `holidays`), shown as any name is.
    public static func fallback(forPath path: String) -> String {
        var component = Substring(path)
        while component.count > 1, component.hasSuffix("/") { component = component.dropLast() }
        if let slash = component.lastIndex(of: "/"), component.index(after: slash) < component.endIndex {
            component = component[component.index(after: slash)...]
        }
        if component.count > 4, component.lowercased().hasSuffix(".ics") { component = component.dropLast(4) }
        return shown(String(component)) ?? String(component)
    }

    /// The name a calendar at `path` called `name` is shown under, and why when it is not
    /// `name`: a name that reads as one of zaoan's own sources (`live`, `festival`; in any
    /// case, whatever shows nothing left out) would pass its events off as rooms or
    /// festivals in `schedule` and answer `calendar=live`, so it gets `CalendarNameRule`'s
    /// suffix (`Live` → `Live (calendar)`), whoever gave it: the config, the calendar, or
    /// its folder's or file's name.
    public static func unreserved(_ name: String, path: String) -> (name: String, problem: CalendarProblem?) {
        let (shown, reserved) = CalendarNameRule.unreserved(name)
        guard let reserved else { return (name, nil) }
        let whose = SourceName.whose(reserved)
        return (shown, CalendarProblem(source: path, uid: nil, message:
            "its name '\(name)' reads as '\(reserved)', \(whose) source name in schedule; the calendar is shown as '\(shown)'"))
    }

    /// The `displayname` of the open folder `folder` (at `path`): nil and no problem when
    /// there is none (or it is blank); a problem when it cannot be read — a FIFO, a device,
    /// a link to another account's file, bigger than `displaynameBytes` — and then no name.
    static func displayname(in folder: Int32, path: String, trust: FileTrust) -> (name: String?, problem: CalendarProblem?) {
        let file = path.hasSuffix("/") ? path + "displayname" : path + "/displayname"
        let bytes: [UInt8]
        do throws(RegularFile.ReadFailure) {
            bytes = try RegularFile.readTrusted("displayname", in: folder, limit: displaynameBytes, trust: trust)
        } catch {
            let reason: String
            switch error {
            case .missing: return (nil, nil)
            case .notRegular(let kind): reason = "a \(kind), not a file"
            case .tooLarge(let bytes): reason = "\(bytes) bytes; at most \(displaynameBytes)"
            case .untrusted(let why): reason = "\(why); not read, as another account could have changed it"
            case .system(let failure): reason = failure.description
            }
            return (nil, CalendarProblem(source: file, uid: nil, message: reason + "; the folder's name stands for the calendar's"))
        }
        return (shown(String(decoding: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes, as: UTF8.self)), nil)
    }

    /// The `X-WR-CALNAME` of a calendar file (Google's, Apple's and Outlook's exports carry
    /// one): looked for among the calendar's own properties, which RFC 5545 puts before its
    /// first component, so the scan stops at the first nested `BEGIN`. Its TEXT escapes are
    /// undone (`\,` `\;` `\\` `\n`).
    static func calendarName(in bytes: [UInt8]) -> String? {
        var found: String?
        do throws(CalendarReadError.Place) {
            var depth = 0
            try ContentLines.forEach(in: bytes) { (line: inout ContentLine) throws(CalendarReadError.Place) in
                if line.starts(with: "BEGIN") {
                    depth += 1
                    if depth > 1 { throw stop }
                } else if line.starts(with: "END") {
                    throw stop
                } else if depth == 1, found == nil, line.name == "X-WR-CALNAME" {
                    found = textValue(of: line.bytes.dropLast())  // the NUL libical would want
                }
            }
        } catch {}
        return found.flatMap(shown)
    }

    private static let stop = CalendarReadError.Place(line: nil, reason: "")

    /// What follows the first `:` outside a quoted parameter value, TEXT-unescaped.
    private static func textValue(of line: ArraySlice<UInt8>) -> String {
        var quoted = false
        var start = line.endIndex
        for index in line.indices {
            let byte = line[index]
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if byte == UInt8(ascii: ":"), !quoted {
                start = line.index(after: index)
                break
            }
        }
        var value: [UInt8] = []
        var escaped = false
        for byte in line[start...] {
            if escaped {
                value.append(byte == UInt8(ascii: "n") || byte == UInt8(ascii: "N") ? 0x0A : byte)
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else {
                value.append(byte)
            }
        }
        return String(decoding: value, as: UTF8.self)
    }

}
