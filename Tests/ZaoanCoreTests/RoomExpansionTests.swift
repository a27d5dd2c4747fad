import Foundation
import Testing
import ZaoanRecurrence
@testable import ZaoanCore
@testable import ZaoanTime

/// Recurring rooms' occurrences come from the service's reader process, possibly late: an
/// expansion is used only for the series it was made from.
@Suite("room expansions in the Responder")
struct RoomExpansionTests {
    private func expansion(of room: LiveRoom, zone: String, starts: [Int64]) -> RoomExpansion {
        RoomExpansion(series: .init(room, zone: zone), spans: starts.map { OccurrenceSpan(start: $0, end: $0) })
    }

    @Test("an expansion made before a room changed does not replace the newer one; a room shows its first start until one fits")
    func staleExpansion() throws {
        let responder = Responder(settings: try makeSettings(timezone: "UTC"))
        let zone = responder.settings.zone.identifier
        let base: Int64 = 1_800_000_000
        var room = LiveRoom(id: "r", title: "R", start: Instant(secondsSince1970: Double(base)), repeatRule: "FREQ=DAILY")
        var schedule = LiveSchedule()
        try schedule.upsert(room, limit: 10)
        let old = expansion(of: room, zone: zone, starts: [base, base + 86_400])
        responder.commit(schedule, expansions: ["r": old])
        #expect(responder.roomsToExpand().isEmpty)

        room.start = Instant(secondsSince1970: Double(base + 3600))
        try schedule.upsert(room, limit: 10)
        responder.commit(schedule)
        #expect(responder.roomsToExpand().map(\.id) == ["r"], "the changed room needs a new expansion")
        let now = Instant(secondsSince1970: Double(base - 60))
        #expect(responder.rotation(at: now).map(\.start) == [room.start], "its first start alone meanwhile")

        let new = expansion(of: room, zone: zone, starts: [base + 3600, base + 90_000])
        responder.replaceRoomExpansions(["r": new])
        responder.replaceRoomExpansions(["r": old])  // an hourly refresh begun before the change
        #expect(responder.roomExpansions["r"] == new)
        #expect(responder.rotation(at: now).map { Int64(Int(clampingSeconds: $0.start.secondsSince1970)) } == [base + 3600, base + 90_000])

        responder.commit(LiveSchedule())
        #expect(responder.roomExpansions.isEmpty, "a removed room's expansion goes with it")
    }
}
