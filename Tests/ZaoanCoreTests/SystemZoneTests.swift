import Foundation
import Testing
@testable import ZaoanCore
@testable import ZaoanTime

/// The machine's zone: the name `/etc/localtime` gives it, the settings that follow it, and
/// a zone file read again after a tzdata upgrade.
@Suite struct SystemZoneTests {
    @Test("the zone a link target names, as systemd's get_timezone reads it", arguments: [
        ("/usr/share/zoneinfo/Asia/Tokyo", "Asia/Tokyo"),
        ("../usr/share/zoneinfo/Europe/Berlin", "Europe/Berlin"),  // relative to /etc
        ("/usr/share/zoneinfo//America/./Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires"),
        ("/etc/../usr/share/zoneinfo/UTC", "UTC"),
        ("/usr/share/zoneinfo/posix/Asia/Tokyo", "Asia/Tokyo"),  // the same rules
        ("/usr/share/zoneinfo/Etc/GMT+8", "Etc/GMT+8"),
    ] as [(String, String)])
    func zoneNames(target: String, name: String) {
        #expect(ZoneLink.zoneName(target: target) == name)
    }

    @Test("a target that names no zone", arguments: [
        "", "/", "/usr/share/zoneinfo", "/usr/share/zoneinfo/", "/usr/share/zoneinfoX/Asia/Tokyo", "/nowhere/at/all",
        "Asia/Tokyo",  // relative to /etc: /etc/Asia/Tokyo
        "/usr/share/zoneinfo/Asia/../../../etc/passwd", "/usr/share/zoneinfo/Asia/To kyo", "/usr/share/zoneinfo/zone.tab",
    ])
    func noZone(target: String) {
        #expect(ZoneLink.zoneName(target: target) == nil)
    }

    @Test("another zoneinfo folder and link folder are honoured")
    func otherFolders() {
        #expect(ZoneLink.zoneName(target: "zones/Asia/Tokyo", folder: "/tmp/x", zoneinfo: "/tmp/x/zones") == "Asia/Tokyo")
        #expect(ZoneLink.zoneName(target: "/usr/share/zoneinfo/Asia/Tokyo", zoneinfo: "/tmp/x/zones") == nil)
    }

    @Test("settings without timezone or city follow the machine's zone, and its city with it")
    func settingsFollow() throws {
        let start = try Settings.resolve(ConfigFile(), systemZone: try timeZone("Pacific/Chatham"))
        #expect(start.followsSystemZone)
        #expect(start.city == "Chatham" && start.zone(forCity: "Chatham")?.identifier == "Pacific/Chatham")
        let moved = start.withSystemZone(try timeZone("Asia/Tokyo"))
        #expect(moved.zone.identifier == "Asia/Tokyo")
        #expect(moved.city == "Tokyo")
        #expect(moved.zone(forCity: "Chatham") == nil, "the city made for the old zone goes with it")
        #expect(moved.zone(forCity: "Tokyo")?.identifier == "Asia/Tokyo")
        let back = moved.withSystemZone(try timeZone("Pacific/Chatham"))
        #expect(back.city == "Chatham" && back.zone(forCity: "Chatham")?.identifier == "Pacific/Chatham")
        #expect(back.zone(forCity: "Tokyo")?.identifier == "Asia/Tokyo", "a built-in city stays")
    }

    @Test("a configured timezone or city is not the machine's", arguments: [
        (timezone: "Europe/Berlin", city: nil), (timezone: nil, city: "Tokyo"), (timezone: "Europe/Berlin", city: "Home"),
    ] as [(timezone: String?, city: String?)])
    func configuredZoneStays(timezone: String?, city: String?) throws {
        var file = ConfigFile()
        file.timezone = timezone
        file.city = city
        let settings = try Settings.resolve(file, systemZone: try timeZone("Pacific/Chatham"))
        #expect(!settings.followsSystemZone)
        let after = settings.withSystemZone(try timeZone("America/New_York"))
        #expect(after.zone.identifier == settings.zone.identifier && after.city == settings.city)
    }

    @Test("a zone file rewritten is read again; the same rules are no change; a broken file leaves the rules kept")
    func refreshedZoneFile() throws {
        var template = Array("/tmp/zaoan-zones-XXXXXX".utf8CString)
        let made = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) })
        let directory = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/Asia", withIntermediateDirectories: false)
        let file = directory + "/Asia/Tokyo"
        func write(_ source: String) throws {
            try FileManager.default.contents(atPath: source)!.write(to: URL(fileURLWithPath: file + ".new"))
            #expect(rename(file + ".new", file) == 0)
        }
        try write("/usr/share/zoneinfo/Asia/Tokyo")
        let store = ZoneInfoStore(directory: directory)
        #expect(try store.refresh(named: "Asia/Tokyo") == false, "a zone not kept before is no change")
        #expect(try store.zoneInfo(named: "Asia/Tokyo").localTime(at: 0).abbreviation == "JST")
        try write("/usr/share/zoneinfo/Asia/Kolkata")
        #expect(try store.zoneInfo(named: "Asia/Tokyo").localTime(at: 0).abbreviation == "JST", "kept until refreshed")
        #expect(try store.refresh(named: "Asia/Tokyo") == true)
        #expect(try store.zoneInfo(named: "Asia/Tokyo").localTime(at: 0).abbreviation == "IST")
        #expect(try store.refresh(named: "Asia/Tokyo") == false, "the same rules again")
        try Data("TZif garbage".utf8).write(to: URL(fileURLWithPath: file))
        #expect(throws: ZoneInfoError.self) { try store.refresh(named: "Asia/Tokyo") }
        #expect(try store.zoneInfo(named: "Asia/Tokyo").localTime(at: 0).abbreviation == "IST", "a broken file leaves the rules kept")
        #expect(throws: ZoneInfoError.self) { try store.refresh(named: "../etc/passwd") }
    }
}
