import ZaoanRecurrence
import CICal

/// An iCalendar file's content lines (RFC 5545 3.1): folded lines joined, each with the
/// number of the physical line it starts on, so errors can name it.
struct ContentLine {
    let number: Int
    /// The bytes, NUL-terminated for libical (the NUL is not part of the line).
    var bytes: [UInt8]

    var isBlank: Bool { bytes.dropLast().allSatisfy { $0 == 0x20 || $0 == 0x09 } }

    /// Whether the line starts with `word` followed by `:` (ASCII, any case): `BEGIN:`, `END:`.
    func starts(with word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count > count, bytes[count] == UInt8(ascii: ":") else { return false }
        return word.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[$0] | 0x20 == expected[$0] | 0x20 }
        }
    }

    /// The property name (`DTSTART` of `DTSTART;TZID=Europe/Berlin:...`), upper-cased.
    var name: String { Self.name(of: bytes[...]) }

    static func name(of bytes: ArraySlice<UInt8>) -> String {
        let end = bytes.firstIndex { $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ":") || $0 == 0 } ?? bytes.endIndex
        return String(decoding: bytes[..<min(end, bytes.startIndex + 80)], as: UTF8.self).uppercased().trimmingASCIISpaces
    }

    /// Whether nothing but spaces follows the `:` that ends the name and parameters (one in
    /// a quoted parameter value does not count): `RRULE:`, `EXDATE;VALUE=DATE: `.
    static func hasEmptyValue(_ bytes: ArraySlice<UInt8>) -> Bool {
        var quoted = false
        for (index, byte) in zip(bytes.indices, bytes) {
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if byte == UInt8(ascii: ":") && !quoted {
                return bytes[(index + 1)...].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0 }
            }
        }
        return false
    }

    /// What follows the first `:` (a BEGIN's component name), upper-cased.
    var value: String {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return "" }
        return String(decoding: bytes[(colon + 1)...].prefix { $0 != 0 }.prefix(80), as: UTF8.self).uppercased().trimmingASCIISpaces
    }
}

/// A VEVENT's RRULE, and a VTIMEZONE observance's, are zaoan's to read (`RuleParts`: each bad
/// part named and left out, the rest kept; INTERVAL whole), not libical's, which drops the
/// whole line for one bad part and narrows INTERVAL to 16 bits. The line reaches libical
/// renamed, so it keeps the text as it is; an empty RRULE is left to libical, which reports
/// it (read as if it were not there).
enum OwnRule {
    static let property = "X-ZAOAN-RRULE"

    /// The text of the component's first RRULE, as the file has it.
    static func text(of component: OpaquePointer) -> String? {
        var property = icalcomponent_get_first_property(component, ICAL_X_PROPERTY)
        while let current = property {
            if LibICal.string(icalproperty_get_x_name(current)) == Self.property { return LibICal.string(icalproperty_get_x(current)) }
            property = icalcomponent_get_next_property(component, ICAL_X_PROPERTY)
        }
        return nil
    }

    static func renamed(_ line: ContentLine) -> ContentLine {
        // Most lines are no RRULE: their first byte says so before a name is made of them.
        guard line.bytes.first.map({ $0 | 0x20 == UInt8(ascii: "r") }) == true, line.name == "RRULE", !ContentLine.hasEmptyValue(line.bytes[...]),
              let end = line.bytes.firstIndex(where: { $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ":") }) else { return line }
        var renamed = line
        renamed.bytes.replaceSubrange(0..<end, with: Array(property.utf8))
        return renamed
    }
}

enum ContentLines {
    /// How many content lines `bytes` holds (an upper bound: blank lines count too), by a
    /// scan of its line ends alone, before anything is built from it.
    static func count(in bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            var lines = 0
            var index = 0
            while index < buffer.count {
                if buffer[index] == 0x0A {
                    let next = index + 1
                    if next == buffer.count || (buffer[next] != 0x20 && buffer[next] != 0x09) { lines += 1 }
                }
                index += 1
            }
            return lines
        }
    }

    /// Calls `body` with each unfolded line of `bytes`, in order: CRLF or LF line ends, a
    /// line starting with a space or a tab continues the one before, a UTF-8 BOM at the
    /// start is skipped. One buffer serves every line (a 10,000-event file is 70,000 lines).
    /// - Throws: the line and why, for a NUL byte (libical reads C strings: it would cut
    ///   the line there) or a content line over `CalendarLimits.bytesPerLine`; or what
    ///   `body` throws.
    static func forEach(in bytes: [UInt8], _ body: (inout ContentLine) throws(CalendarReadError.Place) -> Void) throws(CalendarReadError.Place) {
        var line = ContentLine(number: 1, bytes: [])
        var number = 1
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var atLineStart = true
        var started = false
        func finish() throws(CalendarReadError.Place) {
            line.bytes.append(0)
            try body(&line)
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if atLineStart {
                atLineStart = false
                if (byte == 0x20 || byte == 0x09) && started { continue }  // a fold: drop the space
                if started { try finish() }
                line = ContentLine(number: number, bytes: line.bytes)
                line.bytes.removeAll(keepingCapacity: true)
                started = true
            }
            switch byte {
            case 0x0A:
                if line.bytes.last == 0x0D { line.bytes.removeLast() }
                number += 1
                atLineStart = true
            case 0x00:
                throw CalendarReadError.Place(line: number, reason: "a NUL byte, which no calendar text has")
            default:
                line.bytes.append(byte)
                guard line.bytes.count <= CalendarLimits.bytesPerLine else {
                    throw CalendarReadError.Place(line: line.number, reason: "a content line longer than \(CalendarLimits.bytesPerLine) bytes")
                }
            }
        }
        if started { try finish() }
    }
}

/// Why a calendar file could not be read at all.
public struct CalendarReadError: Error, Equatable, CustomStringConvertible {
    /// The file path or name the text came from.
    public let source: String
    /// The physical line (1-based) where the trouble is, when known.
    public let line: Int?
    public let reason: String

    struct Place: Error {
        let line: Int?
        let reason: String
    }

    init(source: String, _ place: Place) {
        self.source = source
        line = place.line
        reason = place.reason
    }

    /// `work.ics: line 12: END:VEVENT where END:VCALENDAR was expected`.
    public var description: String {
        "\(SafeName.source(source)): " + (line.map { "line \($0): " } ?? "") + reason
    }
}
