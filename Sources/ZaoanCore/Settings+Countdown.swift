import Foundation

/// `countdown_formats` and `countdown_levels`, read into their types: every template parsed
/// and every pattern and colour checked here, at load, so an answer never meets a bad one.
/// A bad set or level is left out (with its problem) and the others are kept.
extension Settings {
    static func countdownFormats(_ value: JSONValue?, language: Language, problems: inout ProblemList) -> [String: CountdownFormatSet] {
        let key = ConfigKey.countdownFormats.name
        guard let value, let members = value.members else { return [:] }
        let (sets, repeated) = ConfigDocument.unique(members, under: key)
        for problem in repeated { problems.add(problem, .entryLeftOut) }
        guard sets.count <= CountdownFormatSet.maxSets else {
            problems.add(ConfigError(key: key, problem: "\(sets.count) sets; at most \(CountdownFormatSet.maxSets)", at: value.position), .defaultUsed)
            return [:]
        }
        var found: [String: CountdownFormatSet] = [:]
        for set in sets {
            let place = "\(key).\(RequestParser.shorten(set.key))"
            do throws(ConfigError) {
                guard Request.isCountdownFormatName(set.key) else {
                    throw ConfigError(key: place, problem: "a set's name is 1 to \(Request.maxCountdownFormatName) of A-Z a-z 0-9 _ -, as format=NAME names it", at: set.keyPosition)
                }
                found[set.key] = try formatSet(set.value, place: place, language: language)
            } catch {
                problems.add(error, .entryLeftOut)
            }
        }
        return found
    }

    /// One set: `{"upcoming": "...", "live": "...", "ended": "...", "none": "..."}`, each optional.
    private static func formatSet(_ value: JSONValue, place: String, language: Language) throws(ConfigError) -> CountdownFormatSet {
        guard let members = value.members else {
            throw ConfigError(key: place, problem: "expected an object of templates: {\"upcoming\": \"{title} {in}\", \"live\": \"● {title} {since}\", \"none\": \"\"}", at: value.position)
        }
        let (unique, repeated) = ConfigDocument.unique(members, under: place)
        if let first = repeated.first { throw first }
        var set = CountdownFormatSet()
        for member in unique {
            let at = "\(place).\(RequestParser.shorten(member.key))"
            guard CountdownFormatSet.keys.contains(member.key) else {
                let hint = Spelling.suggestion(for: member.key, among: CountdownFormatSet.keys).map { "did you mean '\($0)'?" }
                    ?? "a set has " + CountdownFormatSet.keys.map { "\"\($0)\"" }.joined(separator: ", ")
                throw ConfigError(key: at, problem: "unknown key; \(hint)", at: member.keyPosition)
            }
            guard let text = try ConfigDocument.string(member.value, key: at) else { continue }
            let template: CountdownTemplate
            do throws(TemplateProblem) {
                template = try CountdownTemplate.parse(text, fields: member.key == "none" ? [] : CountdownTemplate.Field.allCases)
                for pattern in template.patterns { try checkPattern(pattern, language: language) }
            } catch {
                throw ConfigError(key: at, problem: error.text, at: member.value.position)
            }
            switch member.key {
            case "upcoming": set.upcoming = template
            case "live": set.live = template
            case "ended": set.ended = template
            default: set.none = template
            }
        }
        return set
    }

    /// A `{start:...}` pattern as `time` would take it: strftime with a `%`, else LDML that
    /// formats something.
    private static func checkPattern(_ pattern: String, language: Language) throws(TemplateProblem) {
        let instant = Date(timeIntervalSince1970: 1_796_000_000)
        let utc = TimeZone(identifier: "UTC") ?? .current
        let sample: String
        if pattern.utf8.contains(UInt8(ascii: "%")) {
            do throws(ProtocolError) {
                sample = try Responder.strftime(pattern, now: instant, zone: utc, language: language)
            } catch {
                throw TemplateProblem("the pattern '\(RequestParser.shorten(pattern))': \(error.message)")
            }
        } else {
            sample = FormatterCache(capacity: 1).string(from: instant, pattern: pattern, locale: language.localeIdentifier, zone: utc)
            guard !sample.isEmpty else {
                throw TemplateProblem("the pattern '\(RequestParser.shorten(pattern))' formats to nothing; use LDML (HH:mm) or strftime (%H:%M)")
            }
        }
        // A width such as %900Y would make one field a kilobyte: a time is short.
        guard sample.utf8.count <= CountdownTemplate.maxPatternOutputBytes else {
            throw TemplateProblem("the pattern '\(RequestParser.shorten(pattern))' formats to \(sample.utf8.count) bytes; a time in a template is at most \(CountdownTemplate.maxPatternOutputBytes)")
        }
    }

    static func countdownLevels(_ value: JSONValue?, problems: inout ProblemList) -> CountdownLevels {
        let key = ConfigKey.countdownLevels.name
        guard let value, let members = value.members else { return CountdownLevels() }
        let (unique, repeated) = ConfigDocument.unique(members, under: key)
        for problem in repeated { problems.add(problem, .entryLeftOut) }
        var levels = CountdownLevels()
        let names = CountdownLevels.thresholdNames + CountdownLevels.phaseNames
        for member in unique {
            let place = "\(key).\(RequestParser.shorten(member.key))"
            do throws(ConfigError) {
                guard names.contains(member.key) else {
                    let hint = Spelling.suggestion(for: member.key, among: names).map { "did you mean '\($0)'?" }
                        ?? "the levels are " + names.joined(separator: ", ")
                    throw ConfigError(key: place, problem: "unknown level; \(hint)", at: member.keyPosition)
                }
                let threshold = CountdownLevels.thresholdNames.contains(member.key)
                let (minutes, color) = try level(member.value, place: place, threshold: threshold)
                switch member.key {
                case "warning": levels.warning = minutes.map { .init(minutes: $0, color: color) }
                case "critical": levels.critical = minutes.map { .init(minutes: $0, color: color) }
                case "live": levels.live = color
                default: levels.ended = color
                }
            } catch {
                problems.add(error, .entryLeftOut)
            }
        }
        if let warning = levels.warning, let critical = levels.critical, critical.minutes > warning.minutes {
            problems.add(ConfigError(key: "\(key).critical", problem: "starts \(critical.minutes) minutes before, earlier than warning's \(warning.minutes); critical must be the nearer"),
                         .entryLeftOut)
            levels.critical = nil
        }
        return levels
    }

    /// `{"minutes": N, "color": "#rrggbb"}` (a threshold needs minutes; live and ended take a colour alone).
    private static func level(_ value: JSONValue, place: String, threshold: Bool) throws(ConfigError) -> (Int?, BarColor?) {
        guard let members = value.members else {
            throw ConfigError(key: place, problem: threshold ? "expected {\"minutes\": 15, \"color\": \"#ffb000\"}" : "expected {\"color\": \"#30c030\"}",
                              at: value.position)
        }
        let (unique, repeated) = ConfigDocument.unique(members, under: place)
        if let first = repeated.first { throw first }
        let allowed = threshold ? ["minutes", "color"] : ["color"]
        var minutes: Int?, color: BarColor?
        for member in unique {
            let at = "\(place).\(RequestParser.shorten(member.key))"
            guard allowed.contains(member.key) else {
                throw ConfigError(key: at, problem: "unknown key; a level here has " + allowed.map { "\"\($0)\"" }.joined(separator: " and "), at: member.keyPosition)
            }
            if member.key == "minutes" {
                guard let number = try ConfigDocument.integer(member.value, key: at) else { continue }
                guard CountdownLevels.minutes.contains(number) else {
                    throw ConfigError(key: at, problem: "must be between \(CountdownLevels.minutes.lowerBound) and \(CountdownLevels.minutes.upperBound), got \(number)", at: member.value.position)
                }
                minutes = number
            } else {
                guard let text = try ConfigDocument.string(member.value, key: at) else { continue }
                guard let parsed = BarColor(hex: text) else {
                    throw ConfigError(key: at, problem: "'\(RequestParser.shorten(SafeText.visible(text)))' is not a colour written #rrggbb (six hex digits, e.g. #ff3030)", at: member.value.position)
                }
                color = parsed
            }
        }
        if threshold, minutes == nil {
            throw ConfigError(key: place, problem: "needs \"minutes\", how long before the start it begins (1 to \(CountdownLevels.minutes.upperBound))", at: value.position)
        }
        return (minutes, color)
    }
}
