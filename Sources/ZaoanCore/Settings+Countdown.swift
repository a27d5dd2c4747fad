
/// `countdown_formats` and `countdown_levels`, read into their types: every template parsed
/// and every pattern and colour checked here, at load, so an answer never meets a bad one.
/// A bad value costs only itself: a bad template leaves its set the rest, a bad colour
/// leaves its level its minutes.
extension Settings {
    static func countdownFormats(_ value: JSONValue?, language: Language, problems: inout ProblemList) -> [String: CountdownFormatSet] {
        let key = ConfigKey.countdownFormats.name
        guard let value, let sets = problems.uniqueMembers(of: value, key: key) else { return [:] }
        if sets.count > CountdownFormatSet.maxSets {
            problems.add(ConfigError(key: key, problem: "\(sets.count) sets; at most \(CountdownFormatSet.maxSets)", at: value.position),
                         .instead("the first \(CountdownFormatSet.maxSets) in the file are kept"))
        }
        var found: [String: CountdownFormatSet] = [:]
        for set in sets.prefix(CountdownFormatSet.maxSets) {
            let place = "\(key).\(RequestParser.shorten(set.key))"
            do throws(ConfigError) {
                guard Request.isCountdownFormatName(set.key) else {
                    throw ConfigError(key: place, problem: "a set's name is 1 to \(Request.maxCountdownFormatName) of A-Z a-z 0-9 _ -, as format=NAME names it", at: set.keyPosition)
                }
                found[set.key] = try formatSet(set.value, name: set.key, place: place, language: language, problems: &problems)
            } catch {
                problems.add(error, .entryLeftOut)
            }
        }
        return found
    }

    /// One set: `{"upcoming": "...", "live": "...", "ended": "...", "none": "..."}`, each
    /// optional. A bad template or an unknown key costs only itself: the set keeps the
    /// rest, and that phase says zaoan's own text. Thrown only when the set is not an object.
    private static func formatSet(_ value: JSONValue, name: String, place: String, language: Language,
                                  problems: inout ProblemList) throws(ConfigError) -> CountdownFormatSet {
        guard let members = value.members else {
            throw ConfigError(key: place, problem: "expected an object of templates: {\"upcoming\": \"{title} {in}\", \"live\": \"● {title} {since}\", \"none\": \"\"}", at: value.position)
        }
        let (unique, repeated) = ConfigDocument.unique(members, under: place)
        for problem in repeated { problems.add(problem, .ignored) }
        var set = CountdownFormatSet()
        for member in unique {
            let at = "\(place).\(RequestParser.shorten(member.key))"
            guard CountdownFormatSet.keys.contains(member.key) else {
                let hint = Spelling.hint(for: member.key, among: CountdownFormatSet.keys,
                    otherwise: "a set has " + CountdownFormatSet.keys.map { "\"\($0)\"" }.joined(separator: ", "))
                problems.add(ConfigError(key: at, problem: "unknown key; \(hint)", at: member.keyPosition), .ignored)
                continue
            }
            let template: CountdownTemplate
            do throws(ConfigError) {
                guard let text = try ConfigDocument.string(member.value, key: at) else { continue }
                do throws(TemplateProblem) {
                    template = try CountdownTemplate.parse(text, fields: member.key == "none" ? [] : CountdownTemplate.Field.allCases)
                    for pattern in template.patterns { try checkPattern(pattern, language: language) }
                } catch {
                    throw ConfigError(key: at, problem: error.text, at: member.value.position)
                }
            } catch {
                let standing = member.key == "none" ? "countdowns with no room say zaoan's own text" : "\(member.key) countdowns say zaoan's own text"
                problems.add(error, .instead("the set \(RequestParser.shorten(name)) keeps the rest; \(standing)"))
                continue
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
        let instant = Instant(secondsSince1970: 1_796_000_000)
        let utc = Zone.utc
        let sample: String
        if pattern.utf8.contains(UInt8(ascii: "%")) {
            do throws(ProtocolError) {
                sample = try Responder.strftime(pattern, now: instant, zone: utc, language: language)
            } catch {
                throw TemplateProblem("the pattern '\(RequestParser.shorten(pattern))': \(error.message)")
            }
        } else {
            do throws(LDMLPatternError) {
                sample = try FormatterCache(capacity: 1).string(from: instant, pattern: pattern, language: language, zone: utc)
            } catch {
                throw TemplateProblem("the pattern '\(RequestParser.shorten(pattern))': \(error)")
            }
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
        guard let unique = problems.uniqueMembers(of: value, key: key) else { return CountdownLevels() }
        var levels = CountdownLevels()
        let names = CountdownLevels.thresholdNames + CountdownLevels.phaseNames
        for member in unique {
            let place = "\(key).\(RequestParser.shorten(member.key))"
            do throws(ConfigError) {
                guard names.contains(member.key) else {
                    let hint = Spelling.hint(for: member.key, among: names,
                        otherwise: "the levels are " + names.joined(separator: ", "))
                    throw ConfigError(key: place, problem: "unknown level; \(hint)", at: member.keyPosition)
                }
                let threshold = CountdownLevels.thresholdNames.contains(member.key)
                let level = try level(member.value, name: member.key, place: place, threshold: threshold, problems: &problems)
                switch member.key {
                case "warning": levels.warning = level.minutes.map { .init(minutes: $0, color: level.color, urgent: level.urgent) }
                case "critical": levels.critical = level.minutes.map { .init(minutes: $0, color: level.color, urgent: level.urgent) }
                case "live": levels.live = CountdownLevels.Phase(color: level.color, urgent: level.urgent)
                default: levels.ended = CountdownLevels.Phase(color: level.color, urgent: level.urgent)
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

    /// What one level's object gave.
    private struct LevelValue {
        var minutes: Int?
        var color: BarColor?
        var urgent: Bool?
    }

    /// `{"minutes": N, "color": "#rrggbb" or a CSS name, "urgent": true}` (a threshold needs
    /// minutes; live and ended take a colour and urgency alone). A bad colour or urgency, or
    /// an unknown key, costs only itself: the level keeps the rest, and the problem says so.
    /// Thrown only when the level itself cannot stand (not an object, no good minutes).
    private static func level(_ value: JSONValue, name: String, place: String, threshold: Bool,
                              problems: inout ProblemList) throws(ConfigError) -> LevelValue {
        guard let members = value.members else {
            throw ConfigError(key: place, problem: threshold ? "expected {\"minutes\": 15, \"color\": \"#ffb000\"}" : "expected {\"color\": \"#30c030\"}",
                              at: value.position)
        }
        let (unique, repeated) = ConfigDocument.unique(members, under: place)
        for problem in repeated { problems.add(problem, .ignored) }
        let allowed = threshold ? ["minutes", "color", "urgent"] : ["color", "urgent"]
        var found = LevelValue()
        var setAside: [(ConfigError, String)] = []  // a colour or urgency, said once the minutes are known
        for member in unique {
            let at = "\(place).\(RequestParser.shorten(member.key))"
            do throws(ConfigError) {
                switch member.key {
                case "minutes" where threshold:
                    guard let number = try ConfigDocument.integer(member.value, key: at) else { continue }
                    guard CountdownLevels.minutes.contains(number) else {
                        throw ConfigError(key: at, problem: "must be between \(CountdownLevels.minutes.lowerBound) and \(CountdownLevels.minutes.upperBound), got \(number)", at: member.value.position)
                    }
                    found.minutes = number
                case "color":
                    guard let text = try ConfigDocument.string(member.value, key: at) else { continue }
                    guard let parsed = BarColor(configured: text) else {
                        setAside.append((ConfigError(key: at, problem: "'\(RequestParser.shorten(SafeText.visible(text)))' is not a colour: write #rrggbb (six hex digits, e.g. #ff3030) or a CSS colour name (orange, red)", at: member.value.position), "colour"))
                        continue
                    }
                    found.color = parsed
                case "urgent":
                    found.urgent = try ConfigDocument.boolean(member.value, key: at)
                default:
                    let hint = Spelling.hint(for: member.key, among: allowed,
                        otherwise: "a level here has " + allowed.map { "\"\($0)\"" }.joined(separator: ", "))
                    problems.add(ConfigError(key: at, problem: "unknown key; \(hint)", at: member.keyPosition), .ignored)
                }
            } catch {
                if member.key == "minutes" { throw error }
                setAside.append((error, member.key == "urgent" ? "urgency" : "colour"))
            }
        }
        if threshold, found.minutes == nil {
            throw ConfigError(key: place, problem: "needs \"minutes\", how long before the start it begins (1 to \(CountdownLevels.minutes.upperBound))", at: value.position)
        }
        for (problem, part) in setAside {
            let kept = found.minutes.map { "\(name) keeps its \($0) minutes" } ?? "\(name) keeps the rest"
            let standing = part == "colour" ? "without a colour" : "with the default urgency"
            problems.add(problem, .instead("\(kept), \(standing)"))
        }
        return found
    }
}
