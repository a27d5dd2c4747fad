import Testing
@testable import ZaoanCalendar

extension CalendarTests {
    @Suite struct RecurrenceRuleTests {
        @Test("words and RRULEs read to the canonical text", arguments: [
            ("daily", "FREQ=DAILY"),
            ("Weekdays", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
            (" weekly ", "FREQ=WEEKLY"),
            ("FREQ=WEEKLY;BYDAY=MO,WE,FR", "FREQ=WEEKLY;BYDAY=MO,WE,FR"),
            ("FREQ=MONTHLY;BYMONTHDAY=1;COUNT=12", "FREQ=MONTHLY;COUNT=12;BYMONTHDAY=1"),
            ("FREQ=WEEKLY;UNTIL=20270101T000000Z", "FREQ=WEEKLY;UNTIL=20270101T000000Z"),
            ("RRULE:freq=daily;interval=2", "FREQ=DAILY;INTERVAL=2"),
            ("FREQ=HOURLY;BYHOUR=9,17", "FREQ=HOURLY;BYHOUR=9,17"),
            ("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1"),
            // Kept whole: libical read 1000003 as 16963 (a 16-bit field).
            ("FREQ=HOURLY;INTERVAL=1000003", "FREQ=HOURLY;INTERVAL=1000003"),
        ])
        func canonical(_ input: String, _ expected: String) throws {
            let rule = try RecurrenceRule(parsing: input)
            #expect(rule.text == expected)
            // The saved form reads back to itself.
            #expect(try RecurrenceRule(parsing: rule.text).text == rule.text)
        }

        @Test("refusals name what is wrong in the user's terms", arguments: [
            ("", "empty"),
            ("   ", "empty"),
            ("hourly-ish", "no FREQ="),
            ("FREQ=FORTNIGHTLY", "FREQ=FORTNIGHTLY is not a frequency"),
            ("FREQ=MINUTELY", "a bar would never rest"),
            ("FREQ=SECONDLY;COUNT=5", "repeats every second"),
            ("FREQ=WEEKLY;BYDAY=MO,XX", "'BYDAY=MO,XX' is not understood: days are MO TU WE TH FR SA SU"),
            ("FREQ=DAILY;COUNT=-5", "'COUNT=-5' is not understood: COUNT is a whole number from 1"),
            ("FREQ=DAILY;INTERVAL=0", "'INTERVAL=0' is not understood"),
            ("FREQ=DAILY;BYHOUR=99", "'BYHOUR=99' is not understood: hours are 0 to 23"),
            ("FREQ=DAILY;UNTIL=999991231T000000Z", "'UNTIL=999991231T000000Z' is not understood: UNTIL is a date"),
            ("FREQ=DAILY;UNTIL=99991231T000000Z", "within the years 1800–2400"),
            ("FREQ=DAILY;FOO=1", "'FOO=1' is not understood: zaoan does not know FOO"),
            ("FREQ=DAILY; COUNT=2", "a space"),
            ("FREQ=DAILY;COUNT=2\u{1B}[31m", "'␛'"),
            (String(repeating: "FREQ=DAILY;", count: 30), "bytes long; at most 256"),
        ])
        func refusal(_ input: String, _ expected: String) {
            #expect {
                try RecurrenceRule(parsing: input)
            } throws: { error in
                let message = (error as? RecurrenceRuleError)?.description ?? ""
                #expect(message.contains(expected), "\(message)")
                #expect(!message.unicodeScalars.contains { $0.value < 0x20 }, "control characters in \(message)")
                return true
            }
        }

        @Test("frequency and COUNT are read")
        func fields() throws {
            let rule = try RecurrenceRule(parsing: "FREQ=MONTHLY;BYMONTHDAY=1;COUNT=12")
            #expect(rule.frequency == .monthly)
            #expect(rule.count == 12)
            #expect(try RecurrenceRule(parsing: "weekdays").count == nil)
        }
    }
}
