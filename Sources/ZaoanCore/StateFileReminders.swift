import ZaoanText

/// The `reminders` object of the state file: `{"sent_through": 1796000000, "alarms":
/// [{"id": "0a1b2c3d4e5f", "until": 1796000300, "event_end": 1796003600}, {"id": ...,
/// "dismissed": true, "event_end": ...}]}`. Left out while there is nothing in it (so a
/// file without reminders reads as every earlier version wrote it). An entry that is not
/// this shape is dropped and named; the others are kept.
enum StateFileReminders {
    static func encode(_ reminders: Reminders) -> JSONWriter.Value? {
        guard reminders.sentThrough != nil || !reminders.entries.isEmpty else { return nil }
        var fields: [(String, JSONWriter.Value)] = []
        if let sent = reminders.sentThrough { fields.append(("sent_through", .integer(sent))) }
        let entries = reminders.entries.sorted { $0.key < $1.key }.map { id, entry -> JSONWriter.Value in
            var members: [(String, JSONWriter.Value)] = [("id", .string(id))]
            switch entry.choice {
            case .snoozed(let until): members.append(("until", .integer(until)))
            case .dismissed: members.append(("dismissed", .bool(true)))
            }
            members.append(("event_end", .integer(entry.eventEnd)))
            return .object(members)
        }
        fields.append(("alarms", .array(entries)))
        return .object(fields)
    }

    static func decode(_ value: JSONValue, dropped: inout [String]) -> Reminders {
        var reminders = Reminders()
        guard value.members != nil else {
            dropped.append("'reminders' is not an object; snoozes and dismissals start afresh")
            return reminders
        }
        if let sent = value["sent_through"], !sent.isNull {
            if let second = sent.integer, AcceptedTimes.room.contains(second) {
                reminders.loadSentThrough(second)
            } else {
                dropped.append("reminders: 'sent_through' is not a time zaoan writes; alarms missed before this start are not fired")
            }
        }
        for (index, item) in (value["alarms"]?.items ?? []).enumerated() {
            guard let id = item["id"]?.string, RoomLimits.isAlarmID(id),
                  let end = item["event_end"]?.integer, AcceptedTimes.room.contains(end) else {
                dropped.append("reminder \(index + 1): no valid 'id' (12 of 0-9 a-f) or 'event_end'")
                continue
            }
            if item["dismissed"]?.bool == true {
                reminders.insertLoaded(id, Reminders.Entry(choice: .dismissed, eventEnd: end))
            } else if let until = item["until"]?.integer, AcceptedTimes.room.contains(until) {
                reminders.insertLoaded(id, Reminders.Entry(choice: .snoozed(until: until), eventEnd: end))
            } else {
                dropped.append("reminder \(index + 1) '\(id)': neither 'dismissed' nor a valid 'until'")
            }
        }
        return reminders
    }
}
