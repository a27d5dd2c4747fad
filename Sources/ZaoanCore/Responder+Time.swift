/// `time`: LDML patterns through zaoan's own engine (`LDMLRenderer`, over CLDR's words),
/// `%` formats as `date +FORMAT` (Responder+Strftime.swift), and the Chinese calendar's
/// dates.
extension Responder {
    /// The current time through a cached formatter; `%` patterns are strftime, formatted
    /// as `date +FORMAT` would (Responder+Strftime.swift). `zone`: another zone than the
    /// configured one (`time PATTERN @ZONE`).
    public func time(pattern: String?, now: Instant, zone: Zone? = nil) throws(ProtocolError) -> String {
        let ldml = pattern ?? settings.timeFormat
        if ldml.utf8.contains(UInt8(ascii: "%")) {
            return try strftime(ldml, now: now, zone: zone ?? settings.zone, language: settings.language)
        }
        let text: String
        do throws(LDMLPatternError) {
            text = try formatters.string(from: now, pattern: ldml, language: settings.language, zone: zone ?? settings.zone)
        } catch {
            throw ProtocolError(.badArgument, "\(error); see docs/protocol.md for patterns")
        }
        guard !text.isEmpty else {
            throw ProtocolError(.badArgument, "the pattern '\(RequestParser.shorten(pattern ?? ldml))' formats to nothing; see docs/protocol.md for patterns")
        }
        return text
    }

    /// `time calendar=chinese` without a pattern: `丙午年十月十二` /
    /// `Year of bing-wu, month 10, day 12`.
    static func chineseDatePattern(_ language: Language) -> String {
        language.chineseDatePattern
    }

    /// An LDML pattern in the Chinese calendar (the almanac's dates, days in Chinese numerals
    /// in zh and zh-Hant).
    func chineseTime(pattern: String?, now: Instant, zone: Zone) throws(ProtocolError) -> String {
        let ldml = pattern ?? Self.chineseDatePattern(settings.language)
        guard ldml.utf16.count <= Self.maxPatternLength else {
            throw ProtocolError(.badArgument, "the pattern is \(ldml.utf16.count) characters long; at most \(Self.maxPatternLength)")
        }
        let formatted: String?
        do throws(LDMLPatternError) {
            formatted = try ChineseCalendar.format(now, pattern: ldml, zone: zone, language: settings.language, almanac: almanac, cache: formatters)
        } catch {
            throw ProtocolError(.badArgument, "\(error); see docs/protocol.md for patterns")
        }
        guard let text = formatted else {
            let years = ChineseCalendarPattern.years
            throw ProtocolError(.badArgument, "the Chinese calendar is reckoned for the years \(years.lowerBound) to \(years.upperBound); ask for a time in them, or leave out calendar=chinese")
        }
        guard !text.isEmpty else {
            throw ProtocolError(.badArgument, "the pattern '\(RequestParser.shorten(ldml))' formats to nothing; see docs/protocol.md for patterns")
        }
        return text
    }

    /// The longest pattern `time` takes (in UTF-16 units; strftime formats too).
    public static let maxPatternLength = StrftimeFormat.maxLength
}
