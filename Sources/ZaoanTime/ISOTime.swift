/// `2026-12-01T20:00:00+08:00`: an instant in ISO 8601 with its zone's offset, what
/// `schedule`, `live show` and `watch events` write for every start and end. Written
/// directly from the civil date (a fraction of a microsecond), where a formatter took 5.
package enum ISOTime {
    /// The text for `unixSeconds` at `utcOffset`, or nil outside years 1000–9999 or for an
    /// offset that is not whole minutes (a local mean time's `+08:05:43`), which the caller
    /// leaves to ICU, whose `xxx` writes them its own way.
    package static func text(unixSeconds: Int, utcOffset: Int) -> String? {
        guard utcOffset % 60 == 0, abs(utcOffset) < 100 * 3_600 else { return nil }
        let (local, overflow) = unixSeconds.addingReportingOverflow(utcOffset)
        guard !overflow else { return nil }
        let days = CivilCalendar.floorDivide(local, 86_400)
        let date = CivilCalendar.civil(daysSince1970: days)
        guard date.year >= 1_000 && date.year <= 9_999 else { return nil }
        let second = local - days * 86_400
        let minutes = abs(utcOffset) / 60
        var bytes: [UInt8] = []
        bytes.reserveCapacity(25)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        digits(date.year, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(date.month, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(date.day, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(second / 3_600, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(second % 3_600 / 60, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(second % 60, 2)
        bytes.append(utcOffset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        digits(minutes / 60, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(minutes % 60, 2)
        return String(decoding: bytes, as: UTF8.self)
    }
}
