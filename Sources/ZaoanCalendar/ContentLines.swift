/// An iCalendar file's content lines (RFC 5545 3.1): folded lines joined, each with the
/// number of the physical line it starts on, so errors can name it.
struct ContentLine {
    let number: Int
    let bytes: [UInt8]

    var isBlank: Bool { bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 } }

    /// The property name (`DTSTART` of `DTSTART;TZID=Europe/Berlin:...`), upper-cased.
    var name: String {
        let end = bytes.firstIndex { $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ":") } ?? bytes.endIndex
        return String(decoding: bytes[..<min(end, 80)], as: UTF8.self).uppercased().trimmingASCIISpaces
    }

    /// What follows the first `:` (a BEGIN's component name), upper-cased.
    var value: String {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return "" }
        return String(decoding: bytes[(colon + 1)...].prefix(80), as: UTF8.self).uppercased().trimmingASCIISpaces
    }
}

enum ContentLines {
    /// The unfolded lines of `bytes`: CRLF or LF line ends, a line starting with a space or
    /// a tab continues the one before, a UTF-8 BOM at the start is skipped.
    /// - Throws: the line and why, for a NUL byte (libical reads C strings: it would cut
    ///   the line there) or a content line over `CalendarLimits.bytesPerLine`.
    static func unfold(_ bytes: [UInt8]) throws(CalendarReadError.Place) -> [ContentLine] {
        var lines: [ContentLine] = []
        var current: [UInt8] = []
        var currentNumber = 1
        var number = 1
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var atLineStart = true
        var started = false
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if atLineStart {
                atLineStart = false
                if (byte == 0x20 || byte == 0x09) && started { continue }  // a fold: drop the space
                if started { lines.append(ContentLine(number: currentNumber, bytes: current)) }
                current.removeAll(keepingCapacity: true)
                currentNumber = number
                started = true
            }
            switch byte {
            case 0x0A:
                if current.last == 0x0D { current.removeLast() }
                number += 1
                atLineStart = true
            case 0x00:
                throw CalendarReadError.Place(line: number, reason: "a NUL byte, which no calendar text has")
            default:
                current.append(byte)
                guard current.count <= CalendarLimits.bytesPerLine else {
                    throw CalendarReadError.Place(line: currentNumber, reason: "a content line longer than \(CalendarLimits.bytesPerLine) bytes")
                }
            }
        }
        if started { lines.append(ContentLine(number: currentNumber, bytes: current)) }
        return lines
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
