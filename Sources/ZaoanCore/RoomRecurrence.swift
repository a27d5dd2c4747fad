import Foundation
import ZaoanCalendar

/// Recurring rooms (`live add ID START TITLE repeat=RULE`): one recurrence engine for rooms
/// and calendar files, ZaoanCalendar's (libical's rules, zaoan's DST handling). A room keeps
/// its first start and its rule; its occurrences are expanded for the window ahead when
/// countdowns and the ticker need them, each keeping the first start's wall-clock time in
/// the configured zone (a 07:00 daily room stays at 07:00 across a DST change).
enum RoomRecurrence {
    /// How far ahead occurrences are expanded, and how often (seconds) that is done again.
    static let windowSeconds: Int64 = 48 * 3600
    static let refreshSeconds: Int64 = 3600

    /// The rule as it is saved (`daily` → `FREQ=DAILY`), or an error in the user's terms.
    static func canonical(_ text: String) throws(ProtocolError) -> String {
        let parsed = LibICalLock.run { () -> Result<String, RecurrenceRuleError> in
            do throws(RecurrenceRuleError) { return .success(try RecurrenceRule(parsing: text).text) } catch { return .failure(error) }
        }
        switch parsed {
        case .success(let rule): return rule
        case .failure(let error): throw ProtocolError(.badArgument, "repeat=\(RequestParser.shorten(text)): \(error.description)")
        }
    }

    /// `2026-12-24` as a day of the calendar; nil if there is no such day.
    static func day(_ text: String) -> ZaoanCalendar.CivilDay? {
        guard RoomLimits.isDate(text), let year = Int(text.prefix(4)), let month = Int(text.dropFirst(5).prefix(2)),
              let day = Int(text.suffix(2)) else { return nil }
        return ZaoanCalendar.CivilDay(year: year, month: month, day: day)
    }

    /// The occurrences of a recurring room that are live or start within the window after
    /// `now`, as rooms of their own (same ID and title, their own start and end).
    static func occurrences(of room: LiveRoom, zone: TimeZone, now: Int64, defaultDuration: Int,
                            ahead: Int64 = windowSeconds) -> [LiveRoom] {
        LibICalLock.run {
            // `live add` checked the series (`check`); one that no longer expands (a reload
            // chose a zone libical cannot read, or the clock is outside the calendar's years)
            // shows its first start rather than nothing.
            guard let series = try? series(of: room, zone: zone, defaultDuration: defaultDuration).get(),
                  let window = try? CalendarWindow(from: now - series.durationSeconds, to: now + ahead) else { return [room] }
            return series.occurrences(in: window).spans.map { span in
                var occurrence = room
                occurrence.start = Date(timeIntervalSince1970: Double(span.start))
                occurrence.end = room.end == nil ? nil : Date(timeIntervalSince1970: Double(span.end))
                occurrence.startWallClock = nil
                return occurrence
            }
        }
    }

    /// Refuses a recurring room whose series cannot be expanded, saying why.
    static func check(_ room: LiveRoom, zone: TimeZone, defaultDuration: Int) throws(ProtocolError) {
        if case .failure(let error) = LibICalLock.run({ series(of: room, zone: zone, defaultDuration: defaultDuration) }) {
            throw error
        }
    }

    /// The room's series: its first start on the zone's wall clock, its rule, skipped days
    /// and each occurrence's length (its own, or `defaultDuration`). Call under the lock.
    private static func series(of room: LiveRoom, zone: TimeZone, defaultDuration: Int) -> Result<RecurringSeries, ProtocolError> {
        guard let text = room.repeatRule else { return .failure(ProtocolError(.badArgument, "room '\(room.id)' does not repeat")) }
        let rule: RecurrenceRule
        let calendarZone: CalendarZone
        do throws(RecurrenceRuleError) { rule = try RecurrenceRule(parsing: text) } catch {
            return .failure(ProtocolError(.badArgument, "repeat=\(RequestParser.shorten(text)): \(error.description)"))
        }
        do throws(CalendarZone.Failure) { calendarZone = try CalendarZone(named: zone.identifier) } catch {
            return .failure(ProtocolError(.badArgument, "the zone \(zone.identifier) cannot be read for recurring rooms (\(error)); set another timezone"))
        }
        let first = Int64(Int(clampingSeconds: room.start.timeIntervalSince1970))
        guard let wall = calendarZone.wallClock(at: first) else {
            return .failure(ProtocolError(.badArgument, "the first start is outside the years a recurring room may have"))
        }
        let length = room.end.map { Int64(Int(clampingSeconds: $0.timeIntervalSince(room.start).rounded())) } ?? Int64(defaultDuration)
        return .success(RecurringSeries(firstStart: wall, zone: calendarZone, rule: rule, skippedDays: Set((room.skippedDays ?? []).compactMap(day)),
                                        durationSeconds: min(max(length, 0), CalendarLimits.maximumEventSeconds)))
    }
}
