import Foundation
import Testing
@testable import ZaoanRecurrence

extension CalendarTests {
    /// zaoan's own recurrence engine (`RuleIterator`) against python-dateutil's rrule over
    /// thousands of seeded random valid rules and starts: every FREQ, BYxxx lists with
    /// negative and ordinal values, BYSETPOS, WKST, COUNT and UNTIL, starts on Feb 29 and
    /// the 31st. Wall clocks only (zones are the expander's, tested with the files). The
    /// oracle counts DTSTART as RFC 5545 §3.8.5.3 does (Oracle/expand.py, `walls`).
    @Suite struct RuleEngineOracleTests {
        /// Choices from a seeded generator (HostileInputTests' SplitMix): the same rules every run.
        struct Seeded {
            var source: SplitMix
            init(seed: UInt64) { source = SplitMix(seed: seed) }
            mutating func below(_ n: Int) -> Int { Int(source.next() % UInt64(n)) }
            mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
            mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
            mutating func signed(_ limit: Int) -> Int { (below(limit) + 1) * (chance(25) ? -1 : 1) }
            mutating func list(_ count: Int, _ make: (inout Seeded) -> Int) -> String {
                var values: [Int] = []
                for _ in 0..<count {
                    let value = make(&self)
                    if !values.contains(value) { values.append(value) }
                }
                return values.map(String.init).joined(separator: ",")
            }
        }

        struct Case {
            let rule: String
            let start: LocalDateTime
            let cap: LocalDateTime
        }

        static let days = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

        /// A valid rule as RFC 5545 §3.3.10 allows it (BYYEARDAY not with DAILY, WEEKLY or
        /// MONTHLY; BYWEEKNO only with YEARLY; BYMONTHDAY not with WEEKLY; ordinal BYDAY
        /// only with MONTHLY or YEARLY, not beside BYWEEKNO; BYSETPOS beside another BYxxx;
        /// not COUNT and UNTIL both), and a start; UNTIL floating, as dateutil takes it with
        /// a floating start.
        static func randomCase(_ g: inout Seeded) -> Case {
            let frequencies = ["YEARLY", "YEARLY", "MONTHLY", "MONTHLY", "WEEKLY", "DAILY", "DAILY", "HOURLY", "MINUTELY", "SECONDLY"]
            let frequency = g.pick(frequencies)
            let year = 2020 + g.below(10)
            let month = 1 + g.below(12)
            let day = g.chance(15) ? (month == 2 ? 29 : 31) : 1 + g.below(28)
            let startYear = month == 2 && day == 29 ? g.pick([2020, 2024, 2028]) : year
            let start = LocalDateTime(year: startYear, month: month, day: day, hour: g.below(24), minute: g.chance(60) ? 0 : g.below(60),
                                      second: g.chance(80) ? 0 : g.below(60)) ?? LocalDateTime(year: year, month: month, day: 28)!
            var parts = ["FREQ=\(frequency)"]
            if g.chance(35) { parts.append("INTERVAL=\(g.pick([2, 2, 3, 4, 5, 7, 13]))") }
            var limited = false
            if g.chance(25) {
                parts.append("BYMONTH=" + g.list(1 + g.below(3)) { 1 + $0.below(12) })
                limited = true
            }
            if frequency != "WEEKLY", g.chance(25) {
                parts.append("BYMONTHDAY=" + g.list(1 + g.below(3)) { $0.signed(31) })
                limited = true
            }
            if ["YEARLY", "HOURLY", "MINUTELY", "SECONDLY"].contains(frequency), g.chance(12) {
                parts.append("BYYEARDAY=" + g.list(1 + g.below(3)) { $0.signed(366) })
                limited = true
            }
            let weekNumbers = frequency == "YEARLY" && g.chance(15)
            if weekNumbers {
                parts.append("BYWEEKNO=" + g.list(1 + g.below(2)) { $0.signed(53) })
                limited = true
            }
            if g.chance(40) {
                let ordinals = (frequency == "MONTHLY" || frequency == "YEARLY") && !weekNumbers && g.chance(40)
                var chosen: [String] = []
                for _ in 0..<(1 + g.below(3)) {
                    let name = g.pick(days)
                    let entry = ordinals ? "\(g.signed(frequency == "MONTHLY" || parts.contains(where: { $0.hasPrefix("BYMONTH=") }) ? 5 : 53))\(name)" : name
                    if !chosen.contains(entry) { chosen.append(entry) }
                }
                parts.append("BYDAY=" + chosen.joined(separator: ","))
                limited = true
            }
            let subDaily = ["HOURLY", "MINUTELY", "SECONDLY"].contains(frequency)
            if g.chance(subDaily ? 30 : 20) {
                parts.append("BYHOUR=" + g.list(1 + g.below(3)) { $0.below(24) })
                limited = true
            }
            if g.chance(frequency == "MINUTELY" || frequency == "SECONDLY" ? 40 : 12) {
                parts.append("BYMINUTE=" + g.list(1 + g.below(3)) { $0.below(60) })
                limited = true
            }
            if g.chance(frequency == "SECONDLY" ? 40 : 6) {
                parts.append("BYSECOND=" + g.list(1 + g.below(3)) { $0.below(60) })
                limited = true
            }
            if limited, g.chance(20) { parts.append("BYSETPOS=" + g.list(1 + g.below(2)) { $0.signed(4) }) }
            if g.chance(15) { parts.append("WKST=" + g.pick(days)) }
            let span: Int64 = switch frequency {
            case "YEARLY", "MONTHLY": 60 * 366 * 86_400
            case "WEEKLY", "DAILY": 20 * 366 * 86_400
            case "HOURLY": 120 * 86_400
            case "MINUTELY": 3 * 86_400
            default: 3600
            }
            let cap = LocalDateTime(secondsAsIfUTC: start.secondsAsIfUTC + span)!
            if g.chance(25) {
                parts.append("COUNT=\(1 + g.below(30))")
            } else if g.chance(20) {
                let until = LocalDateTime(secondsAsIfUTC: start.secondsAsIfUTC + Int64(g.below(Int(span))))!
                parts.append("UNTIL=" + compact(until))
            }
            // The parts in a shuffled order: a rule's parts may come in any.
            var shuffled = Array(parts.dropFirst())
            for index in shuffled.indices.reversed() { shuffled.swapAt(index, g.below(index + 1)) }
            shuffled.insert(parts[0], at: g.below(shuffled.count + 1))
            return Case(rule: shuffled.joined(separator: ";"), start: start, cap: cap)
        }

        static func compact(_ wall: LocalDateTime) -> String {
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            return "\(wall.day.year)\(two(wall.day.month))\(two(wall.day.day))T\(two(wall.hour))\(two(wall.minute))\(two(wall.second))"
        }

        static let instances = 25

        /// `20260115T090000` as a wall clock.
        static func wall(_ text: String) -> LocalDateTime? {
            let digits = Array(text.utf8).filter { $0 != UInt8(ascii: "T") }.map { Int($0) - 48 }
            guard digits.count == 14, digits.allSatisfy({ (0...9).contains($0) }) else { return nil }
            func number(_ from: Int, _ length: Int) -> Int { digits[from..<(from + length)].reduce(0) { $0 * 10 + $1 } }
            return LocalDateTime(year: number(0, 4), month: number(4, 2), day: number(6, 2), hour: number(8, 2), minute: number(10, 2), second: number(12, 2))
        }

        /// The engine's first `instances` starts up to the case's cap.
        static func engine(_ item: Case) -> (walls: [String], exhausted: Bool) {
            guard let parts = RuleParts.read(item.rule).parts else { return (["unreadable"], false) }
            var iterator = RuleIterator(parts: parts, start: item.start, through: item.cap)
            var walls: [String] = []
            while walls.count < instances, let wall = iterator.next(), wall <= item.cap { walls.append(compact(wall)) }
            return (walls, iterator.exhausted)
        }

        @Test("3,000 seeded random valid rules give what python-dateutil gives (DTSTART counted as RFC 5545 §3.8.5.3 has it)")
        func randomRulesAgreeWithDateutil() throws {
            var g = Seeded(seed: 20_261_205)
            let cases = (0..<3_000).map { _ in Self.randomCase(&g) }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("zaoan-walls-\(getpid()).txt")
            defer { try? FileManager.default.removeItem(at: file) }
            let lines = cases.enumerated().map { "\($0.offset) \(Self.compact($0.element.start)) \(Self.compact($0.element.cap)) \(Self.instances) \($0.element.rule)" }
            try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
            let answers = try CalendarOracle.run(["walls", file.path])
            #expect(answers.count == cases.count)
            var differences: [String] = []
            var exhausted = 0
            var incomplete = 0
            for answer in answers {
                let fields = answer.split(separator: " ").map(String.init)
                guard let index = Int(fields[0]), cases.indices.contains(index) else { continue }
                let item = cases[index]
                let (ours, gaveUp) = Self.engine(item)
                var theirs = Array(fields.dropFirst())
                if gaveUp { exhausted += 1 }
                if theirs.last == "~" {
                    // dateutil ran out of its time for the case: compare what it found.
                    theirs.removeLast()
                    incomplete += 1
                    if Array(ours.prefix(theirs.count)) == theirs { continue }
                }
                if ours != theirs {
                    differences.append("\(item.rule) from \(Self.compact(item.start)):\n  zaoan    \(ours.prefix(8).joined(separator: " "))\n  dateutil \(theirs.prefix(8).joined(separator: " "))")
                }
            }
            #expect(differences.isEmpty, "\(differences.count) of \(cases.count) rules differ:\n\(differences.prefix(12).joined(separator: "\n"))")
            #expect(incomplete <= cases.count / 50, "dateutil ran out of time on \(incomplete) rules: too few compared in full")
            // The cap is inside the budget for every FREQ (7,320 periods at most): no rule
            // may run out of it before reaching the cap.
            #expect(exhausted == 0, "\(exhausted) rules ran out of the engine's budget before the test's cap")
        }
    }
}
