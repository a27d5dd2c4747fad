/// What a zone's clocks show at some instant: the offset from UTC, whether it is daylight
/// time, and the tz database's abbreviation (`CST`, `CEST`, `+0545`).
public struct LocalTimeType: Equatable, Hashable, Sendable {
    /// Seconds east of UTC.
    public let utcOffset: Int
    public let isDST: Bool
    public let abbreviation: String

    public init(utcOffset: Int, isDST: Bool, abbreviation: String) {
        self.utcOffset = utcOffset
        self.isDST = isDST
        self.abbreviation = abbreviation
    }
}

/// The instants at which a zone's wall clock shows some local time.
public enum LocalTimeResolution: Equatable, Sendable {
    /// Shown once.
    case unique(Int)
    /// Shown more than once, because clocks went back: every instant, earliest first.
    case repeated([Int])
    /// Never shown, because clocks went forward past it: by how many seconds, and the
    /// instant they did.
    case skipped(gapSeconds: Int, transition: Int)

    /// Every instant showing the local time, earliest first (none when skipped).
    public var instants: [Int] {
        switch self {
        case .unique(let instant): return [instant]
        case .repeated(let instants): return instants
        case .skipped: return []
        }
    }
}

/// A time zone as the tz database describes it: its transitions, the local time types they
/// switch between, and the rule for the time after the last one. Built from a TZif file
/// (RFC 8536) by `init(tzif:)` — pure, no file system — or as a fixed offset.
///
/// Answers the way glibc's `localtime` does with `TZ` set to the same file, so `%Z` and `%z`
/// match `date`; but it never reads or touches the process's `TZ`.
public struct ZoneInfo: Equatable, Sendable {
    /// Transition instants (seconds since 1970 UTC), strictly ascending.
    let transitions: [Int]
    /// For each transition, the index in `types` of the local time type it starts.
    let typeIndices: [UInt8]
    /// At least one.
    let types: [LocalTimeType]
    /// The rule after the last transition (version 2+ files); nil when the file has none,
    /// or it is empty: then the last transition's type lasts forever.
    let footer: PosixTimeZoneRule?

    /// Offsets beyond this are refused when parsing (RFC 8536 asks for -89999...93599), so
    /// the wall clock is never more than this far from UTC.
    static let maxOffsetMagnitude = 26 * 3600

    /// A zone whose clocks are always `utcOffset` seconds east of UTC.
    /// - Parameter abbreviation: what `%Z` shows; by default what the tz database uses for
    ///   such zones (`Etc/GMT-8` is `+08`): `+08`, `+0530`, `-0330`, `+054530`.
    public static func fixed(utcOffset: Int, abbreviation: String? = nil) -> ZoneInfo {
        let offset = max(-maxOffsetMagnitude, min(maxOffsetMagnitude, utcOffset))
        return ZoneInfo(transitions: [], typeIndices: [],
                        types: [LocalTimeType(utcOffset: offset, isDST: false, abbreviation: abbreviation ?? numericAbbreviation(offset))],
                        footer: nil)
    }

    /// `+08`, `+0530`, `-0330`, `+054530`: hours, then minutes and seconds only when needed.
    static func numericAbbreviation(_ offset: Int) -> String {
        let magnitude = abs(offset)
        let (hours, minutes, seconds) = (magnitude / 3600, magnitude / 60 % 60, magnitude % 60)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var text = (offset < 0 ? "-" : "+") + two(hours)
        if minutes != 0 || seconds != 0 { text += two(minutes) }
        if seconds != 0 { text += two(seconds) }
        return text
    }

    /// The offset, daylight flag and abbreviation at an instant.
    /// - Parameter unixSeconds: seconds since 1970-01-01 UTC; beyond ±2^53 (285 million
    ///   years) the nearest end of that range is used.
    public func localTime(at unixSeconds: Int) -> (offset: Int, isDST: Bool, abbreviation: String) {
        let type = localTimeType(at: unixSeconds)
        return (type.utcOffset, type.isDST, type.abbreviation)
    }

    public func localTimeType(at unixSeconds: Int) -> LocalTimeType {
        let instant = Self.clamped(unixSeconds)
        guard let first = transitions.first, instant >= first else {
            // Before the first transition, or none at all: glibc takes the first standard-time
            // type (the first type if all are daylight time) and ignores the footer.
            return types.first(where: { !$0.isDST }) ?? types[0]
        }
        if instant >= transitions[transitions.count - 1] {
            return footer?.localTime(at: instant) ?? types[Int(typeIndices[typeIndices.count - 1])]
        }
        // The last transition at or before the instant.
        var low = 0
        var high = transitions.count - 1  // transitions[high] > instant
        while high - low > 1 {
            let middle = (low + high) / 2
            if transitions[middle] <= instant { low = middle } else { high = middle }
        }
        return types[Int(typeIndices[low])]
    }

    /// The instants during which this zone's wall clock stays in the same period of
    /// `seconds` local seconds as at `instant` (the same minute, the same hour) with the
    /// same offset: what a rendering of that period made at `instant` is right for. Ends
    /// early at any instant where the offset may change.
    /// - Parameter seconds: 1 through 86,400.
    public func localPeriod(around instant: Int, seconds: Int) -> Range<Int> {
        let length = max(1, min(86_400, seconds))
        let now = Self.clamped(instant)
        let offset = localTimeType(at: now).utcOffset
        let index = CivilCalendar.floorDivide(now + offset, length)
        var from = index * length - offset
        var until = from + length
        for change in changePoints(in: from...(until - 1)) {
            if change <= now { from = max(from, change) } else { until = min(until, change) }
        }
        return from..<until
    }

    /// The instants at which the wall clock shows `localSeconds` (a local date and time
    /// written as seconds since 1970-01-01 00:00 of that wall clock): one, several when
    /// clocks went back over it, none — with the size of the gap — when they jumped it.
    public func instants(atLocal localSeconds: Int) -> LocalTimeResolution {
        let local = Self.clamped(localSeconds)
        let window = (local - Self.maxOffsetMagnitude - 1)...(local + Self.maxOffsetMagnitude + 1)
        let changes = changePoints(in: window)
        var offsets = Set([localTimeType(at: window.lowerBound).utcOffset])
        for change in changes { offsets.insert(localTimeType(at: change).utcOffset) }
        let found = offsets.map { local - $0 }.filter { localTimeType(at: $0).utcOffset == local - $0 }.sorted()
        if found.count == 1 { return .unique(found[0]) }
        if found.count > 1 { return .repeated(found) }
        for change in changes {
            let before = localTimeType(at: change - 1).utcOffset
            let after = localTimeType(at: change).utcOffset
            if after > before, change + before <= local, local < change + after {
                return .skipped(gapSeconds: after - before, transition: change)
            }
        }
        // Unreachable for a consistent zone; answer with the nearest reading rather than trap.
        return .unique(local - localTimeType(at: local).utcOffset)
    }

    /// Every instant in `window` at which the offset may change, ascending: listed
    /// transitions, and after the last one the footer's changes and the UTC new years at
    /// which it re-evaluates them.
    func changePoints(in window: ClosedRange<Int>) -> [Int] {
        var points: [Int] = []
        var index = firstTransition(atOrAfter: window.lowerBound)
        while index < transitions.count, transitions[index] <= window.upperBound {
            points.append(transitions[index])
            index += 1
        }
        if let footer, let last = transitions.last, window.upperBound >= last {
            let firstYear = CivilCalendar.civil(daysSince1970: CivilCalendar.floorDivide(window.lowerBound, 86_400)).year
            let lastYear = CivilCalendar.civil(daysSince1970: CivilCalendar.floorDivide(window.upperBound, 86_400)).year
            for year in (firstYear - 1)...(lastYear + 1) {
                var candidates = [CivilCalendar.saturatingDays(year: year, month: 1, day: 1) * 86_400]
                if let changes = footer.changes(inYear: year) { candidates += [changes.start, changes.end] }
                points += candidates.filter { $0 > last && window.contains($0) }
            }
        }
        return Array(Set(points)).sorted()
    }

    /// The index of the first transition at or after `instant` (`transitions.count` if none).
    private func firstTransition(atOrAfter instant: Int) -> Int {
        var low = 0
        var high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] < instant { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private static func clamped(_ seconds: Int) -> Int {
        max(-BrokenDownTime.maxUnixSeconds, min(BrokenDownTime.maxUnixSeconds, seconds))
    }
}

/// Why bytes are not a usable TZif file (or a name not a usable zone).
public struct ZoneInfoError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

extension ZoneInfo {
    /// The largest TZif file read (the biggest in the tz database is under 4 KiB).
    static let maxFileSize = 256 * 1024

    /// Parses a TZif file (RFC 8536, versions 1 to 4): the 64-bit data of version 2 and
    /// later, or the 32-bit data of version 1, and the footer's TZ rule. Every count, index
    /// and length is checked against the bytes before anything is allocated for it, so
    /// truncated or hostile bytes are refused, never trapped on. Leap-second records are
    /// skipped (the tz database's `right/` zones would need them).
    public init(tzif bytes: [UInt8]) throws(ZoneInfoError) {
        guard bytes.count <= Self.maxFileSize else { throw ZoneInfoError("the file is larger than \(Self.maxFileSize) bytes") }
        var reader = TZifReader(bytes: bytes)
        let first = try reader.header()
        guard first.version >= 2 else {
            self = try reader.dataBlock(first, timeSize: 4, footer: nil)
            return
        }
        try reader.skip(first.blockLength(timeSize: 4))
        let second = try reader.header()
        let dataEnd = reader.position + second.blockLength(timeSize: 8)
        guard dataEnd <= bytes.count else { throw ZoneInfoError("the file ends inside its 64-bit data") }
        let footer = try reader.footer(startingAt: dataEnd)
        self = try reader.dataBlock(second, timeSize: 8, footer: footer)
    }
}

/// Reads a TZif file front to back; every read is bounds-checked.
private struct TZifReader {
    struct Header {
        let version: Int
        let isUTCCount, isStandardCount, leapCount, transitionCount, typeCount, characterCount: Int

        /// Bytes of the data block after this header (`timeSize` 4 or 8). Counts are below
        /// 2^32, so this cannot overflow.
        func blockLength(timeSize: Int) -> Int {
            transitionCount * (timeSize + 1) + typeCount * 6 + characterCount
                + leapCount * (timeSize + 4) + isStandardCount + isUTCCount
        }
    }

    let bytes: [UInt8]
    var position = 0

    mutating func skip(_ count: Int) throws(ZoneInfoError) {
        guard count <= bytes.count - position else { throw ZoneInfoError("the file is truncated") }
        position += count
    }

    mutating func header() throws(ZoneInfoError) -> Header {
        guard bytes.count - position >= 44 else { throw ZoneInfoError("the file is shorter than a TZif header") }
        guard bytes[position..<(position + 4)].elementsEqual("TZif".utf8) else { throw ZoneInfoError("the file is not TZif (no 'TZif' magic)") }
        let versionByte = bytes[position + 4]
        let version: Int
        switch versionByte {
        case 0: version = 1
        case UInt8(ascii: "2")...UInt8(ascii: "9"): version = Int(versionByte - UInt8(ascii: "0"))
        default: throw ZoneInfoError("unknown TZif version byte \(versionByte)")
        }
        position += 20
        var counts: [Int] = []
        for _ in 0..<6 { counts.append(Int(try unsigned(4))) }
        let header = Header(version: version, isUTCCount: counts[0], isStandardCount: counts[1], leapCount: counts[2],
                            transitionCount: counts[3], typeCount: counts[4], characterCount: counts[5])
        guard header.typeCount >= 1, header.typeCount <= 256 else { throw ZoneInfoError("the file has \(header.typeCount) local time types; 1 to 256 are allowed") }
        guard header.characterCount >= 1 else { throw ZoneInfoError("the file has no abbreviation characters") }
        guard header.isUTCCount == 0 || header.isUTCCount == header.typeCount,
              header.isStandardCount == 0 || header.isStandardCount == header.typeCount else {
            throw ZoneInfoError("the file's UT/local and standard/wall indicator counts do not match its types")
        }
        return header
    }

    /// A big-endian unsigned integer of `size` bytes.
    mutating func unsigned(_ size: Int) throws(ZoneInfoError) -> UInt64 {
        guard size <= bytes.count - position else { throw ZoneInfoError("the file is truncated") }
        var value: UInt64 = 0
        for index in position..<(position + size) { value = value << 8 | UInt64(bytes[index]) }
        position += size
        return value
    }

    /// A big-endian two's-complement integer of 4 or 8 bytes.
    mutating func signed(_ size: Int) throws(ZoneInfoError) -> Int {
        let raw = try unsigned(size)
        return size == 8 ? Int(Int64(bitPattern: raw)) : Int(Int32(bitPattern: UInt32(truncatingIfNeeded: raw)))
    }

    /// The footer: a newline, a TZ string, a newline, and nothing after.
    func footer(startingAt start: Int) throws(ZoneInfoError) -> PosixTimeZoneRule? {
        guard start < bytes.count, bytes[start] == 0x0A else { throw ZoneInfoError("the file has no footer after its 64-bit data") }
        guard let end = bytes[(start + 1)...].firstIndex(of: 0x0A) else { throw ZoneInfoError("the file's footer does not end with a newline") }
        guard end == bytes.count - 1 else { throw ZoneInfoError("the file has bytes after its footer") }
        let rule = Array(bytes[(start + 1)..<end])
        guard !rule.isEmpty else { return nil }
        guard rule.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { throw ZoneInfoError("the file's TZ string is not printable ASCII") }
        return try PosixTimeZoneRule(parsing: rule)
    }

    mutating func dataBlock(_ header: Header, timeSize: Int, footer: PosixTimeZoneRule?) throws(ZoneInfoError) -> ZoneInfo {
        guard header.blockLength(timeSize: timeSize) <= bytes.count - position else { throw ZoneInfoError("the file ends inside its data") }
        var transitions: [Int] = []
        transitions.reserveCapacity(header.transitionCount)
        for _ in 0..<header.transitionCount {
            let time = try signed(timeSize)
            if let previous = transitions.last, time <= previous { throw ZoneInfoError("the file's transitions are not in ascending order") }
            transitions.append(time)
        }
        let typeIndices = Array(bytes[position..<(position + header.transitionCount)])
        position += header.transitionCount
        if let bad = typeIndices.first(where: { Int($0) >= header.typeCount }) {
            throw ZoneInfoError("a transition names local time type \(bad) of \(header.typeCount)")
        }
        var rawTypes: [(offset: Int, isDST: UInt8, abbreviationIndex: Int)] = []
        for _ in 0..<header.typeCount {
            let offset = try signed(4)
            let isDST = UInt8(try unsigned(1))
            let index = Int(try unsigned(1))
            rawTypes.append((offset, isDST, index))
        }
        let characters = Array(bytes[position..<(position + header.characterCount)])
        position += header.characterCount
        var types: [LocalTimeType] = []
        for raw in rawTypes {
            guard abs(raw.offset) <= ZoneInfo.maxOffsetMagnitude else { throw ZoneInfoError("a local time type is \(raw.offset) s from UTC, beyond ±26 h") }
            guard raw.isDST <= 1 else { throw ZoneInfoError("a local time type has a daylight flag of \(raw.isDST)") }
            guard raw.abbreviationIndex < characters.count,
                  let end = characters[raw.abbreviationIndex...].firstIndex(of: 0) else {
                throw ZoneInfoError("a local time type's abbreviation lies outside the abbreviation characters")
            }
            let abbreviation = characters[raw.abbreviationIndex..<end]
            guard abbreviation.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { throw ZoneInfoError("an abbreviation is not printable ASCII") }
            types.append(LocalTimeType(utcOffset: raw.offset, isDST: raw.isDST == 1, abbreviation: String(decoding: abbreviation, as: UTF8.self)))
        }
        // Leap-second records and the indicators are not needed.
        try skip(header.leapCount * (timeSize + 4) + header.isStandardCount + header.isUTCCount)
        if timeSize == 4, position != bytes.count { throw ZoneInfoError("the version 1 file has bytes after its data") }
        return ZoneInfo(transitions: transitions, typeIndices: typeIndices, types: types, footer: footer)
    }
}
