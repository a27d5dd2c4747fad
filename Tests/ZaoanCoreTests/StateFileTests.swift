import Foundation
import Testing
@testable import ZaoanCore

/// `state.json` through the one JSON reader and writer: a file the previous version (which
/// used Foundation's JSONDecoder and JSONEncoder) saved loads and is saved again byte for
/// byte, so that version loads what this one saves; and a hostile file is a clear problem,
/// its good rooms kept where possible, never a trap.
@Suite struct StateFileTests {
    /// Saved by zaoan before this change (`live add`, `live skip` in Europe/Berlin, one room
    /// in the spring-forward gap): JSONEncoder's `.prettyPrinted`, `.sortedKeys`.
    static let savedByVersionOne = #"""
{
  "rooms" : [
    {
      "description" : "睡前读一章\/line",
      "end" : 1797798600,
      "id" : "yedu",
      "start" : 1797793200,
      "title" : "夜读 a\/b \"quoted\" \\back",
      "viewers" : 1234
    },
    {
      "end" : 1797921000,
      "id" : "weekly",
      "repeat" : "FREQ=WEEKLY",
      "skip" : [
        "2026-12-29"
      ],
      "start" : 1797919200,
      "title" : "Weekly standup"
    },
    {
      "id" : "bare",
      "start" : 1803891600,
      "title" : ""
    },
    {
      "end" : 1806201000,
      "id" : "gap",
      "start" : 1806197400,
      "start_wall_clock" : 1806201000,
      "title" : "Sommerzeit gap"
    }
  ],
  "version" : 1
}
"""#

    /// The same version's file once every room was removed.
    static let emptyByVersionOne = #"""
{
  "rooms" : [

  ],
  "version" : 1
}
"""#

    @Test("a state.json the previous version saved loads, every field kept")
    func previousVersionLoads() throws {
        let decoded = try StateFile.decode(Array(Self.savedByVersionOne.utf8))
        #expect(decoded.dropped.isEmpty)
        let rooms = decoded.schedule.rooms
        #expect(Set(rooms.keys) == ["yedu", "weekly", "bare", "gap"])
        let yedu = try #require(rooms["yedu"])
        #expect(yedu.title == #"夜读 a/b "quoted" \back"# && yedu.description == "睡前读一章/line" && yedu.viewers == 1234)
        #expect(yedu.start == Instant(secondsSince1970: 1_797_793_200) && yedu.end == Instant(secondsSince1970: 1_797_798_600))
        let weekly = try #require(rooms["weekly"])
        #expect(weekly.repeatRule == "FREQ=WEEKLY" && weekly.skippedDays == ["2026-12-29"])
        #expect(rooms["gap"]?.startWallClock == 1_806_201_000)
        #expect(rooms["bare"]?.title == "" && rooms["bare"]?.end == nil)
    }

    @Test("saving what the previous version saved gives its bytes back, so it loads what this one saves",
          arguments: [savedByVersionOne, emptyByVersionOne])
    func savedBytesAreThePreviousVersions(file: String) throws {
        let decoded = try StateFile.decode(Array(file.utf8))
        #expect(String(decoding: StateFile.encode(decoded.schedule), as: UTF8.self) == file)
    }

    @Test("strings and numbers are written as the previous version wrote them, and read back the same")
    func escapesAndNumbers() throws {
        var schedule = LiveSchedule()
        let title = "a/b \"c\" \\ \u{07}\u{1F}\u{7F}\u{2028}é\n\t\r\u{08}\u{0C}"
        schedule.insertLoaded(LiveRoom(id: "odd", title: title, start: Instant(secondsSince1970: 1_796_000_000.123456789),
                                       end: Instant(secondsSince1970: 1_796_000_000.5)))
        let text = String(decoding: StateFile.encode(schedule), as: UTF8.self)
        // What JSONEncoder wrote for the same title and times.
        #expect(text.contains(#""title" : "a\/b \"c\" \\ \u0007\u001f\#u{7F}\#u{2028}é\n\t\r\b\f""#), "\(text)")
        #expect(text.contains(#""start" : 1796000000.1234567,"#) && text.contains(#""end" : 1796000000.5,"#), "\(text)")
        let again = try StateFile.decode(Array(text.utf8))
        #expect(again.schedule == schedule && again.dropped.isEmpty)
    }

    /// A file that cannot be a state file at all: the whole file is refused, saying why.
    @Test("a file that is not a state file says why", arguments: [
        ("", "not JSON: 1:1: no JSON value, only blanks"),
        ("{\"version\": 1, \"rooms\": [] // note\n}", "not JSON: 1:28: a comment"),
        ("[1, 2]", "not an object"),
        (#"{"rooms": []}"#, "no 'version'"),
        (#"{"version": 1}"#, "no 'rooms'"),
        (#"{"version": "1", "rooms": []}"#, "'version' has the wrong type"),
        (#"{"version": 1.5, "rooms": []}"#, "'version' has the wrong type"),
        (#"{"version": 1, "rooms": {}}"#, "'rooms' has the wrong type"),
        (#"{"version": 1, "rooms": [], "rooms": []}"#, "'rooms' appears twice"),
        (#"{"version": 1, "rooms": [\#(String(repeating: "[", count: 40))]}"#, "nested more than 32 deep"),
        (#"{"version": 1, "rooms": ["#, "not JSON: 1:25: the array that starts here is not closed"),
    ])
    func notAStateFile(text: String, expected: String) {
        #expect(throws: StateFile.Failure.self) { try StateFile.decode(Array(text.utf8)) }
        do {
            _ = try StateFile.decode(Array(text.utf8))
        } catch {
            #expect(error.description.contains(expected), "\(error)")
        }
    }

    /// `privacy`: saved only while on; a value that is not a boolean keeps titles hidden.
    @Test("privacy round-trips, is left out while off, and a bad value hides rather than shows")
    func privacy() throws {
        var schedule = LiveSchedule()
        #expect(!String(decoding: StateFile.encode(schedule), as: UTF8.self).contains("privacy"))
        schedule.privacy = true
        let saved = StateFile.encode(schedule)
        #expect(try StateFile.decode(saved).schedule.privacy)
        let bad = try StateFile.decode(Array(#"{"version": 1, "rooms": [], "privacy": "no"}"#.utf8))
        #expect(bad.schedule.privacy && bad.dropped == ["'privacy' is not true or false; titles stay hidden until privacy off"])
        #expect(throws: StateFile.Failure.notStateFile("'privacy' appears twice")) {
            try StateFile.decode(Array(#"{"version": 1, "rooms": [], "privacy": false, "privacy": true}"#.utf8))
        }
    }

    @Test("another version is named")
    func otherVersion() {
        #expect(throws: StateFile.Failure.otherVersion(2)) { try StateFile.decode(Array(#"{"version": 2, "rooms": [{"x": 1}]}"#.utf8)) }
    }

    /// One bad room is dropped and named; the others are kept.
    @Test("a bad room is dropped and named, the others kept", arguments: [
        (#"{"id": "a", "title": "t", "start": 1800000000, "title": "u"}"#, "room 1 'a': 'title' appears twice"),
        (#"{"id": "a", "start": 1800000000, "viewers": 1e300}"#, "room 1 'a': 'viewers' has the wrong type"),
        (#"{"id": "a", "start": 1800000000, "viewers": 2.5}"#, "room 1 'a': 'viewers' has the wrong type"),
        (#"{"id": "a", "start": 1800000000, "viewers": -1}"#, "room 1 'a': 'viewers' is negative"),
        (#"{"id": "a", "start": 1e400}"#, "room 1 'a': 'start' has the wrong type"),
        (#"{"id": "a", "start": 9.3e18}"#, "room 1 'a': 'start' 9.3e+18 is outside the accepted times"),
        (#"{"id": "a", "start": "1800000000"}"#, "room 1 'a': 'start' has the wrong type"),
        (#"{"id": "a"}"#, "room 1 'a': no 'start'"),
        (#"{"id": "a b", "start": 1800000000}"#, "room 1 'a b': no valid 'id'"),
        (#"{"id": 7, "start": 1800000000}"#, "room 1: 'id' has the wrong type"),
        (#""a room""#, "room 1: not an object"),
        (#"{"id": "a", "start": 1800000000, "skip": ["2027-01-05"]}"#, "room 1 'a': 'skip' must list"),
        (#"{"id": "a", "start": 1800000000, "repeat": "FREQ=WEEKLY", "skip": [5]}"#, "room 1 'a': 'skip' has the wrong type"),
        (#"{"id": "a", "start": 1800000000, "repeat": "freq=weekly"}"#, "room 1 'a': 'repeat' is not a rule zaoan writes"),
        (#"{"id": "a", "start": 1800000000, "end": 1700000000}"#, "room 1 'a': 'end' is not after 'start'"),
        (#"{"id": "a", "title": "\#(String(repeating: "長", count: 100))", "start": 1800000000}"#, "room 1 'a': the title is longer than 256 bytes"),
    ])
    func badRoom(room: String, expected: String) throws {
        let text = #"{"version": 1, "rooms": [\#(room), {"id": "good", "title": "夜读", "start": 1800000000, "future_field": {"x": [1]}}]}"#
        let decoded = try StateFile.decode(Array(text.utf8))
        #expect(Array(decoded.schedule.rooms.keys) == ["good"], "\(decoded.dropped)")
        #expect(decoded.dropped.count == 1 && decoded.dropped[0].hasPrefix(expected), "\(decoded.dropped)")
    }

    @Test("null is an absent field, and a later room with the same ID replaces the earlier one")
    func nullsAndRepeatedIDs() throws {
        let text = #"{"version": 1, "rooms": [{"id": "a", "title": null, "start": 1800000000, "end": null}, {"id": "a", "title": "later", "start": 1800000100}]}"#
        let decoded = try StateFile.decode(Array(text.utf8))
        #expect(decoded.schedule.rooms["a"]?.title == "later")
        #expect(decoded.dropped == ["room 2 'a': the ID appears twice; the later one is kept"])
    }
}
