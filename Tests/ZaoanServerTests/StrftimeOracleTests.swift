import Foundation
import Glibc
import Testing
import ZaoanCore

/// `time FORMAT` answered by the real `zaoan serve` under a frozen clock
/// (`faketime -f "YYYY-MM-DD hh:mm:ss"`, UTC) against GNU `date -d @T +FORMAT` with the same
/// zone (`TZ`) and locale (`LC_ALL` the language's: `en_US.UTF-8`, `zh_CN.UTF-8`, `ja_JP.UTF-8`,
/// ..., compiled with `localedef`
/// into a directory of the test's own, `LOCPATH`): at every 2026 DST transition ±1 s in
/// Berlin, New York, Lord Howe and Chatham, at half- and quarter-hour zones, a leap day, ISO
/// week-year edges, the epoch and 2^31 s; every conversion bare, with each flag and modifier,
/// and a sample of widths and odd combinations; every language over one session per service.
/// Byte for byte, after the one change the protocol makes to every answer: a newline (`%n`)
/// comes out as its visible stand-in ␊.
@Suite("strftime through the binary matches date", Sanitizer.skipped("the service runs under faketime, whose LD_PRELOAD the sanitizer runtime does not allow"))
struct StrftimeOracleTests {
    struct Moment: CustomStringConvertible, Sendable {
        /// For faketime, in UTC.
        let utc: String
        let zone: String
        var description: String { "\(utc)Z in \(zone)" }
    }

    /// A DST transition (UTC) and the seconds either side.
    private static func around(_ utc: String, in zone: String) -> [Moment] {
        let instant = unixSeconds(utc)
        return [instant - 1, instant, instant + 1].map { Moment(utc: utcText($0), zone: zone) }
    }

    static let moments: [Moment] = {
        var moments: [Moment] = []
        moments += around("2026-03-29 01:00:00", in: "Europe/Berlin")
        moments += around("2026-10-25 01:00:00", in: "Europe/Berlin")
        moments += around("2026-03-08 07:00:00", in: "America/New_York")
        moments += around("2026-11-01 06:00:00", in: "America/New_York")
        moments += around("2026-04-04 15:00:00", in: "Australia/Lord_Howe")  // +11 → +10:30
        moments += around("2026-10-03 15:30:00", in: "Australia/Lord_Howe")  // +10:30 → +11
        moments += around("2026-04-04 14:00:00", in: "Pacific/Chatham")  // +13:45 → +12:45
        moments += around("2026-09-26 14:00:00", in: "Pacific/Chatham")
        moments += [
            Moment(utc: "2026-12-01 04:00:00", zone: "Asia/Kolkata"),
            Moment(utc: "2026-06-15 18:14:00", zone: "Asia/Kathmandu"),  // past local midnight
            Moment(utc: "2024-02-29 12:00:00", zone: "Asia/Shanghai"),  // leap day
            Moment(utc: "2024-02-29 10:30:00", zone: "Pacific/Chatham"),  // leap day, past local midnight
            Moment(utc: "2026-12-31 23:00:00", zone: "Europe/Berlin"),  // 2027-01-01: ISO week 53 of 2026
            Moment(utc: "2020-12-31 12:00:00", zone: "America/New_York"),  // week 53 of 2020
            Moment(utc: "2021-01-03 12:00:00", zone: "Asia/Kolkata"),  // still week 53 of 2020
            Moment(utc: "1970-01-01 00:00:00", zone: "Etc/UTC"),
            Moment(utc: "1970-01-01 00:00:00", zone: "America/New_York"),  // 1969 there
            Moment(utc: "2038-01-19 03:14:08", zone: "Etc/UTC"),
            Moment(utc: "2038-01-19 03:14:08", zone: "Australia/Lord_Howe"),
        ]
        return moments
    }()

    /// Every conversion bare, with each flag and each modifier; widths; odd combinations;
    /// date's default format; literal quotes.
    static let formats: [String] = {
        var formats: [String] = []
        for letter in "aAbBcCdDeFgGhHIjklmMnNpPqrRsStTuUVwWxXyYzZ%" {
            for prefix in ["", "-", "_", "0", "^", "#", "+", "E", "O"] {
                formats.append("%" + prefix + String(letter))
            }
        }
        formats += [
            "%10Y", "%3N", "%-5d", "%_10H", "%^a", "%#Z", "%-j", "%_V", "%12F", "%_12F", "%+12F", "%-12F", "%010T", "%_10D",
            "%+6Y", "%+3C", "%_5Oz", "%020c", "%^c", "%-20A", "%10a", "%010b", "%_7B", "%^#p", "%#P", "%^10P", "%10Z", "%_10z",
            "%:z", "%::z", "%:::z", "%_:z", "%-::z", "%10:::z", "%E:z", "%^#Z", "%12N", "%_12N", "%1N", "%9N", "%_3N", "%5s",
            "%_5e", "%-k", "%03l", "%+4q", "%_4u", "%5U", "%-W", "%Ey", "%EC", "%EY", "%Ex", "%EX", "%Ec", "%Od", "%Oy",
            "%a %b %e %H:%M:%S %Z %Y", "%FT%T%:z", "%l:%M %p", "%k:%M", "W%V", "%s", "%G-W%V-%u", "%Y年%m月%d日 %A",
            "%H'%M", "%H'", "'%H", "''%H", "it's %l o'clock", "\"%H\"", "\\%H", "%%H", "100%%",
        ]
        return formats
    }()

    @Test("every format at every moment, in every language")
    func matchesDate() throws {
        let locales = try Self.compiledLocales.get()
        let results = Results()
        // Two services at a time: the machine has two cores.
        DispatchQueue.concurrentPerform(iterations: Self.moments.count) { index in
            do {
                try Self.compare(Self.moments[index], locales: locales, into: results)
            } catch {
                results.fail("\(Self.moments[index]): \(error)")
            }
        }
        print("StrftimeOracleTests: \(results.compared) answers compared with date at \(Self.moments.count) moments in \(Set(Self.moments.map(\.zone)).count) zones, \(results.identical) identical; \(results.refused) refused where date does not convert either, \(results.wrongRefusals) refused where date does")
        let differences = results.differences
        let count = differences.count
        #expect(count == 0, "\(count) differences, e.g.\n\(differences.prefix(10).joined(separator: "\n"))")
        #expect(Self.moments.count >= 30 && Set(Self.moments.map(\.zone)).count >= 6)
        #expect(results.compared > 20_000)
    }

    /// One service at one moment: English, then each other language after a reload.
    private static func compare(_ moment: Moment, locales: String, into results: Results) throws {
        var configuration = TestService.Configuration()
        configuration.wrapper = ["faketime", "-f", moment.utc]  // no @: frozen
        configuration.environment["TZ"] = "UTC"
        configuration.environment["DONT_FAKE_MONOTONIC"] = "1"  // the event loop's timers
        configuration.config = #"{"language": "en", "timezone": "\#(moment.zone)"}"#
        let service = try TestService.start(configuration)
        defer { try? service.stop() }
        let client = try RawClient(path: service.socketPath, timeout: 30)
        try client.send("session\n")
        guard try client.readLine() == "ok" else { throw TestFailure("session was not answered ok") }
        let instant = unixSeconds(moment.utc)
        for language in ["en"] + Language.allCases.map(\.rawValue).filter({ $0 != "en" }) {
            if language != "en" {
                try Data(#"{"language": "\#(language)", "timezone": "\#(moment.zone)"}"#.utf8).write(to: URL(fileURLWithPath: service.configPath))
                try client.send("reload\n")
                guard try client.readLine() == "ok" else { throw TestFailure("reload was not answered ok") }
            }
            let expected = try dateOutputs(formats, at: instant, zone: moment.zone, language: language, locales: locales, scratch: service.directory)
            let answers = try pipelinedTimes(client, formats)
            for (format, (answer, dateOutput)) in zip(formats, zip(answers, expected)) {
                if answer.hasPrefix("ERR ") {
                    // zaoan refuses only what date leaves unconverted too.
                    if dateOutput.contains("%") { results.refusal() } else { results.wrongRefusal("\(moment) \(language) \(format): refused (\(answer)), date printed \(dateOutput.debugDescription)") }
                    continue
                }
                let visible = dateOutput.replacingOccurrences(of: "\n", with: "\u{240A}")
                results.comparison(answer == visible ? nil : "\(moment) \(language) \(format): zaoan \(answer.debugDescription), date \(visible.debugDescription)")
            }
        }
        try client.send("quit\n")
    }

    /// `time "FORMAT"` for each format, pipelined in batches over the session.
    private static func pipelinedTimes(_ client: RawClient, _ formats: [String]) throws -> [String] {
        var answers: [String] = []
        var start = 0
        while start < formats.count {
            let batch = formats[start..<min(formats.count, start + 64)]
            let lines = batch.map { "time \"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"\n" }
            try client.send(lines.joined())
            for _ in batch { answers.append(try client.readLine()) }
            start += batch.count
        }
        return answers
    }

    /// `date -d @T +F1<marker>F2<marker>...`, split back into one output per format.
    private static func dateOutputs(_ formats: [String], at instant: Int, zone: String, language: String, locales: String,
                                    scratch: TemporaryDirectory) throws -> [String] {
        let marker = "\u{1}\u{2}"
        var environment = Tool.baseEnvironment(home: scratch.path)
        environment["TZ"] = zone
        environment["LOCPATH"] = locales
        guard let known = Language(tag: language) else { throw TestFailure("no such language: \(language)") }
        environment["LC_ALL"] = known.localeIdentifier + ".UTF-8"
        var outputs: [String] = []
        var start = 0
        while start < formats.count {
            let chunk = Array(formats[start..<min(formats.count, start + 250)])
            let result = try Tool.run("/bin/date", ["-d", "@\(instant)", "+" + chunk.joined(separator: marker) + marker],
                                      environment: environment, timeout: 30, scratch: scratch)
            guard result.status == 0 else { throw TestFailure("date failed: \(result)") }
            var parts = String(result.output.dropLast()).components(separatedBy: marker)
            parts.removeLast()
            guard parts.count == chunk.count else { throw TestFailure("date gave \(parts.count) outputs for \(chunk.count) formats") }
            outputs += parts
            start += chunk.count
        }
        return outputs
    }

    /// The locale of every language (en_US.UTF-8, zh_CN.UTF-8, ...) compiled from Debian's
    /// `locales` sources, once per test process, in a directory reused across runs (nothing
    /// system-wide), named by how many it holds.
    static let compiledLocales = Result { () throws -> String in
        let names = Dictionary(uniqueKeysWithValues: Language.allCases.map { ($0.localeIdentifier, $0.localeIdentifier + ".UTF-8") })
        let directory = "/tmp/zaoan-test-locales-\(getuid())-\(names.count)"
        /// Every locale compiled, in a directory of this user's (not one planted in /tmp).
        func complete(_ path: String) -> Bool {
            var status = stat()
            guard lstat(path, &status) == 0, status.st_uid == getuid(), (status.st_mode & S_IFMT) == S_IFDIR else { return false }
            return names.values.allSatisfy { FileManager.default.fileExists(atPath: "\(path)/\($0)/LC_TIME") }
        }
        if complete(directory) { return directory }
        guard names.keys.allSatisfy({ FileManager.default.fileExists(atPath: "/usr/share/i18n/locales/\($0)") }),
              let localedef = Locations.tool("localedef") else {
            throw TestFailure("cannot compare with date: the locale sources or localedef are missing; install the Debian package locales (scripts/test does)")
        }
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let building = try scratch.makeDirectory("locales", mode: 0o755)
        for (source, name) in names.sorted(by: { $0.key < $1.key }) {
            let result = try Tool.run(localedef, ["-i", source, "-f", "UTF-8", "\(building)/\(name)"],
                                      environment: Tool.baseEnvironment(home: scratch.path), timeout: 120, scratch: scratch)
            // localedef exits 1 for mere warnings; what counts is the compiled LC_TIME.
            guard FileManager.default.fileExists(atPath: "\(building)/\(name)/LC_TIME") else {
                throw TestFailure("localedef -i \(source) -f UTF-8 failed: \(result)")
            }
        }
        if rename(building, directory) != 0, !complete(directory) {
            throw TestFailure("could not place the compiled locales at \(directory): \(String(cString: strerror(errno)))")
        }
        return directory
    }

    /// What the concurrent comparisons found.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var counts = (compared: 0, identical: 0, refused: 0, wrongRefusals: 0)
        private var found: [String] = []

        /// One answer compared; `difference` says how it differs, nil when identical.
        func comparison(_ difference: String?) {
            lock.lock()
            defer { lock.unlock() }
            counts.compared += 1
            if let difference { found.append(difference) } else { counts.identical += 1 }
        }
        func refusal() { lock.lock(); counts.refused += 1; lock.unlock() }
        func wrongRefusal(_ text: String) { lock.lock(); counts.wrongRefusals += 1; found.append(text); lock.unlock() }
        func fail(_ text: String) { lock.lock(); found.append("failed: " + text); lock.unlock() }
        var compared: Int { lock.lock(); defer { lock.unlock() }; return counts.compared }
        var identical: Int { lock.lock(); defer { lock.unlock() }; return counts.identical }
        var refused: Int { lock.lock(); defer { lock.unlock() }; return counts.refused }
        var wrongRefusals: Int { lock.lock(); defer { lock.unlock() }; return counts.wrongRefusals }
        var differences: [String] { lock.lock(); defer { lock.unlock() }; return found }
    }
}

/// "2026-03-29 01:00:00" (UTC) ↔ seconds since 1970.
private func unixSeconds(_ utc: String) -> Int {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(secondsFromGMT: 0)
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    return wholeNumber(formatter.date(from: utc)!.timeIntervalSince1970)
}

private func utcText(_ seconds: Int) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(secondsFromGMT: 0)
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    return formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
}
