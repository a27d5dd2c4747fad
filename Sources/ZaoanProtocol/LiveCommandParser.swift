import ZaoanText

/// The arguments of the `live` rows, after their words:
///
///     live add ID START [TITLE...] [end=END] [desc=TEXT] [viewers=N] [repeat=RULE] [alarm=OFFSETS]
///     live rm ID
///     live show ID
///     event add CALENDAR WHEN [TITLE...] [end=END] [location=TEXT] [desc=TEXT] [repeat=RULE] [alarm=OFFSETS]
///
/// `event add` is read by the same code: its first word is a calendar's name (quoted when it
/// has spaces) instead of a room's ID, it takes `location=` and not `viewers=`.
///
/// START may be two words when it is a local date and time (`2026-12-01 20:00`). Options
/// may stand anywhere after START (quote values with spaces: `desc="two words"`); every
/// other word belongs to the title — except an unquoted `key=value` word whose key is
/// lowercase ASCII letters and not an option (`repet=daily`, a typo that would otherwise
/// vanish into the title): that is an error naming the options. Quoted, it is title.
enum LiveCommandParser {
    /// The one room ID of `live rm ID` and `live show ID`.
    static func singleID(_ words: [String], of kind: RequestKind) throws(ProtocolError) -> String {
        guard words.count == 1 else { throw ProtocolError(.badArgument, "usage: \(kind.descriptor.usage)") }
        try checkID(words[0])
        return words[0]
    }

    static func checkID(_ id: String) throws(ProtocolError) {
        guard RoomLimits.isValidID(id) else {
            throw ProtocolError(.badArgument, "room ID '\(RequestParser.shorten(id))' must be 1 to \(RoomLimits.maxIDLength) of A-Z a-z 0-9 _ -")
        }
    }

    /// The options of `live add`, in the order the errors list them.
    static let options = ["end", "desc", "viewers", "repeat", "alarm"]
    /// The options of `event add`.
    static let eventOptions = ["end", "location", "desc", "repeat", "alarm"]

    /// - Parameters:
    ///   - quoted: indices of words that began with a quote.
    ///   - kind: `.liveAdd`, or `.eventAdd` (the first word is a calendar's name).
    static func draft(_ words: [String], quoted: Set<Int> = [], for kind: RequestKind = .liveAdd) throws(ProtocolError) -> LiveRoomDraft {
        guard words.count >= 2 else {
            throw ProtocolError(.badArgument, "usage: \(kind.descriptor.usage)")
        }
        let options = kind == .eventAdd ? eventOptions : options
        if kind == .eventAdd {
            if let problem = CalendarNameRule.problem(words[0]) {
                throw ProtocolError(.badArgument, "event add CALENDAR: the name \(problem) (quote a name with spaces: \"Work Team\")")
            }
        } else {
            try checkID(words[0])
        }
        var start = words[1]
        var index = 2
        if RoomLimits.isDate(start), index < words.count, RoomLimits.timeOfDay(Substring(words[index])) != nil {
            start += " " + words[index]
            index += 1
        }
        var draft = LiveRoomDraft(id: words[0], start: start, title: "")
        var titleWords: [String] = []
        while index < words.count {
            let word = words[index]
            index += 1
            if var value = option("end=", word) {
                // end=2026-12-01 22:00 arrives as two words, like START.
                if RoomLimits.isDate(value), index < words.count, RoomLimits.timeOfDay(Substring(words[index])) != nil {
                    value += " " + words[index]
                    index += 1
                }
                draft.end = value
            } else if let value = option("desc=", word) {
                guard value.utf8.count <= RoomLimits.maxDescriptionBytes else {
                    throw ProtocolError(.badArgument, "desc is \(value.utf8.count) bytes; at most \(RoomLimits.maxDescriptionBytes)")
                }
                draft.description = value
            } else if options.contains("location"), let value = option("location=", word) {
                guard value.utf8.count <= RoomLimits.maxDescriptionBytes else {
                    throw ProtocolError(.badArgument, "location is \(value.utf8.count) bytes; at most \(RoomLimits.maxDescriptionBytes)")
                }
                draft.location = value
            } else if options.contains("viewers"), let value = option("viewers=", word) {
                guard let viewers = Int(value), viewers >= 0 else {
                    throw ProtocolError(.badArgument, "viewers='\(RequestParser.shorten(value))' must be a whole number, 0 or more")
                }
                draft.viewers = viewers
            } else if let value = option("repeat=", word) {
                guard !value.isEmpty, value.utf8.count <= RoomLimits.maxRepeatRuleBytes else {
                    throw ProtocolError(.badArgument, "repeat= takes daily, weekdays, weekly or an RRULE such as FREQ=WEEKLY;BYDAY=MO,WE,FR (at most \(RoomLimits.maxRepeatRuleBytes) bytes)")
                }
                draft.repeatRule = value
            } else if let value = option("alarm=", word) {
                let offsets = value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                guard !value.isEmpty, value.utf8.count <= RoomLimits.maxAlarmBytes, offsets.count <= RoomLimits.maxAlarms,
                      !offsets.contains(where: \.isEmpty) else {
                    throw ProtocolError(.badArgument, "alarm= takes offsets from the start such as -10m or -1h,-5m (at most \(RoomLimits.maxAlarms), \(RoomLimits.maxAlarmBytes) bytes)")
                }
                draft.alarms = offsets
            } else if !quoted.contains(index - 1), let key = unknownKey(word) {
                throw ProtocolError(.badArgument, "\(kind.descriptor.words) has no option '\(key)='; its options are \(options.map { $0 + "=" }.joined(separator: ", ")) (quote the word to keep it in the title)")
            } else {
                titleWords.append(word)
            }
        }
        draft.title = titleWords.joined(separator: " ")
        guard draft.title.utf8.count <= RoomLimits.maxTitleBytes else {
            throw ProtocolError(.badArgument, "the title is \(draft.title.utf8.count) bytes; at most \(RoomLimits.maxTitleBytes)")
        }
        if kind == .eventAdd {
            guard !draft.title.isEmpty else {
                throw ProtocolError(.badArgument, "event add needs a TITLE after WHEN: \(kind.descriptor.usage)")
            }
            // Written into a file other programs read and show: no control or format
            // character in the title (a line break would end the property early), none but
            // line breaks and tabs in the description.
            for (name, text, breaks) in [("the title", draft.title, false), ("location", draft.location ?? "", false),
                                         ("desc", draft.description ?? "", true)] {
                if let culprit = text.unicodeScalars.first(where: { !SafeText.isWritable($0, lineBreaks: breaks) }) {
                    throw ProtocolError(.badArgument, "\(name) holds a control or format character (\(culprit.codePoint)); nothing was written")
                }
            }
        }
        return draft
    }

    /// The key of a `key=value` word whose key is 1–32 lowercase ASCII letters.
    private static func unknownKey(_ word: String) -> String? {
        guard let equals = word.utf8.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        let key = word.utf8[..<equals]
        guard (1...32).contains(key.count), key.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) else { return nil }
        return String(decoding: key, as: UTF8.self)
    }

    private static func option(_ prefix: String, _ word: String) -> String? {
        word.lowercased().hasPrefix(prefix) ? String(word.dropFirst(prefix.count)) : nil
    }
}
