/// What a live room may hold, checked where `live add` is parsed and where state is read.
import ZaoanText

public enum RoomLimits {
    public static let maxIDLength = 64
    public static let maxTitleBytes = TextLimits.titleBytes
    public static let maxDescriptionBytes = 1024
    /// `repeat=`: an RRULE value is short; libical checks the rest.
    public static let maxRepeatRuleBytes = TextLimits.ruleBytes

    /// IDs are short tokens: letters, digits, `_` and `-`, at most 64.
    public static func isValidID(_ id: String) -> Bool {
        isName(id, maxBytes: maxIDLength)
    }

    /// An alarm's ID (`ReminderID`): 12 of 0-9 a-f.
    public static func isAlarmID(_ id: String) -> Bool {
        id.utf8.count == alarmIDLength && id.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    public static let alarmIDLength = 12
    /// `alarm=-10m,-1m`: at most this many offsets, and bytes in all.
    public static let maxAlarms = 8
    public static let maxAlarmBytes = 128

    /// 1 to `maxBytes` of A-Z a-z 0-9 _ -: a room's ID, a countdown format set's name.
    public static func isName(_ text: String, maxBytes: Int) -> Bool {
        !text.isEmpty && text.utf8.count <= maxBytes && text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }

    /// Days `live skip` keeps per room (a year of them).
    public static let maxSkippedDays = 366

    /// `YYYY-MM-DD` with plausible digits (the calendar checks the day exists).
    public static func isDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return false }
        return bytes.enumerated().allSatisfy { index, byte in index == 4 || index == 7 || (byte >= 0x30 && byte <= 0x39) }
    }

    /// `HH:MM` or `HH:MM:SS` (hour with one or two digits) → hour, minute, second.
    public static func timeOfDay(_ text: Substring) -> (Int, Int, Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
              parts[0].count == 1 || parts[0].count == 2, parts.dropFirst().allSatisfy({ $0.count == 2 }),
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let hour = Int(parts[0]), let minute = Int(parts[1]) else { return nil }
        let second = parts.count == 3 ? Int(parts[2]) ?? 99 : 0
        guard hour < 24, minute < 60, second < 60 else { return nil }
        return (hour, minute, second)
    }
}
