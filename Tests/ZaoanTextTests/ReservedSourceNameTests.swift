import Testing
import ZaoanText

/// A calendar may not be shown under a source name of zaoan's own (`live`, `festival`):
/// which names read as one, and what they are shown as instead.
@Suite struct ReservedSourceNameTests {
    @Test("what reads as live or festival, and what does not", arguments: [
        ("live", "live"), ("Live", "live"), ("LIVE", "live"), ("festival", "festival"), ("FESTIVAL", "festival"),
        ("holiday-cn", "holiday-cn"), ("Holiday-CN", "holiday-cn"), ("holiday", nil), ("Holidays", nil),
        // Whatever shows nothing is left out before comparing: default-ignorable scalars, the blank symbols.
        ("live\u{3164}", "live"), ("\u{115F}live", "live"), ("li\u{034F}ve", "live"), ("live\u{FE0F}", "live"),
        ("live\u{E0100}", "live"), ("live\u{200B}", "live"), ("live\u{2800}", "live"), ("fes\u{1D159}tival", "festival"),
        // Visible differences are other names.
        ("lives", nil), ("live ", nil), ("li ve", nil), ("live (calendar)", nil), ("festivals", nil), ("Festival 2026", nil),
        ("livé", nil), ("", nil), ("\u{3164}", nil), ("ended", nil), ("upcoming", nil),
    ] as [(String, String?)])
    func reserved(name: String, reads: String?) {
        #expect(CalendarNameRule.reserved(name) == reads, "\(name.debugDescription)")
    }

    @Test("a reserved name is shown as its visible scalars with the suffix; any other as it is", arguments: [
        ("live", "live (calendar)"), ("Live", "Live (calendar)"), ("LIVE\u{3164}", "LIVE (calendar)"),
        ("Fe\u{FE0F}stival", "Festival (calendar)"), ("Work", "Work"), ("live (calendar)", "live (calendar)"), ("\u{3164}", "\u{3164}"),
    ])
    func unreserved(name: String, shown: String) {
        let result = CalendarNameRule.unreserved(name)
        #expect(result.name == shown, "\(name.debugDescription)")
        #expect(result.reserved == CalendarNameRule.reserved(name))
        #expect(CalendarNameRule.reserved(result.name) == nil, "a shown name is never reserved")
        #expect(CalendarNameRule.problem(result.name) == nil || CalendarNameRule.problem(name) != nil, "within the bounds of a name")
    }

    @Test func everyReservedNameIsASourceName() {
        #expect(SourceName.reserved == [SourceName.rooms, SourceName.festivals, SourceName.holidays])
        #expect(SourceName.reserved.allSatisfy { CalendarNameRule.reserved($0) == $0 })
    }
}
