import Foundation
import Glibc
import Testing

/// A calendar folder another account can write, through the real service: `nobody` (uid
/// 65534, through setpriv) plants `mine.ics` → the service's own private calendar (mode
/// 0600). Its titles and links must never reach `schedule` or `url ticker`, and `stats`
/// names the refused folder.
@Suite("Hostile neighbours: calendar folders")
struct CalendarNeighbourTests {
    @Test("a link nobody plants in a folder it can write shows none of the service's private titles; stats names the refusal")
    func plantedLink() throws {
        if let reason = Neighbour.unavailable {
            try Test.cancel("skipped: \(reason)")
        }
        let base = try TemporaryDirectory()
        defer { base.remove() }
        chmod(base.path, 0o755)  // nobody may reach the shared folder, not the private file
        let shared = try base.makeDirectory("shared", mode: 0o777)
        let mine = try base.makeDirectory("mine", mode: 0o755)
        let secret = try base.makeDirectory("secret", mode: 0o700)
        let start = Date().addingTimeInterval(10 * 60)
        try CalendarFeedTests.event(uid: "private", title: "Private title", start: start, url: "https://private.example/secret")
            .write(toFile: secret + "/private.ics", atomically: false, encoding: .utf8)
        chmod(secret + "/private.ics", 0o600)
        try CalendarFeedTests.event(uid: "shared", title: "Shared event", minutes: 40).write(toFile: shared + "/shared.ics", atomically: true, encoding: .utf8)
        try CalendarFeedTests.event(uid: "own", title: "Own event", minutes: 50).write(toFile: mine + "/own.ics", atomically: true, encoding: .utf8)

        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"],
                                            config: #"{"calendars": ["\#(shared)", "\#(mine)"]}"#)
        defer { try? service.stop() }  // the checks are made; a failed stop is reported by its own test
        let before = try service.stats()
        #expect(before["calendar_problems"]?.hasPrefix("1 (\(shared): a folder writable") == true, "\(before)")

        let planted = try Tool.run(Locations.tool("setpriv")!, ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/ln", "-s", secret + "/private.ics", shared + "/mine.ics"],
                                   environment: Tool.baseEnvironment(home: "/"), scratch: base)
        try #require(planted.status == 0, "nobody could not plant the link: \(planted)")
        var owner = stat()
        #expect(lstat(shared + "/mine.ics", &owner) == 0 && owner.st_uid == 65534)
        // A change after the plant: once it shows, every calendar has been read again since.
        try CalendarFeedTests.event(uid: "later", title: "Marker", minutes: 60).write(toFile: mine + "/marker.ics", atomically: true, encoding: .utf8)
        var schedule = ""
        #expect(try eventually(timeout: 20, interval: 0.1) {
            schedule = try service.ask("schedule")
            return schedule.contains("Marker")
        }, "the calendars were not read again after the change: \(schedule)")
        #expect(!schedule.contains("Private title"), "the private calendar reached schedule: \(schedule)")
        #expect(schedule.contains("Own event") && !schedule.contains("Shared event"), "\(schedule)")
        let link = try service.ask("url ticker")
        #expect(!link.contains("private.example"), "the private link reached url ticker: \(link)")
        let after = try service.stats()
        #expect(after["calendar_problems"]?.hasPrefix("1 (\(shared): a folder writable") == true, "\(after)")
        #expect(service.stderrText.contains("\(shared): a folder writable by every account (mode 777)"), "the log names it in full: \(service.stderrText)")
    }

    @Test("a folder on the way that nobody owns: the calendar swapped for a link, or made as one before it exists, shows none of the private titles; a link nobody makes in a sticky folder neither; the log says which folder and what to do")
    func folderSwappedThroughItsParent() throws {
        if let reason = Neighbour.unavailable {
            try Test.cancel("skipped: \(reason)")
        }
        let base = try TemporaryDirectory()
        defer { base.remove() }
        chmod(base.path, 0o755)
        let secret = try base.makeDirectory("secret", mode: 0o700)
        try CalendarFeedTests.event(uid: "private", title: "Private title", start: Date().addingTimeInterval(10 * 60), url: "https://private.example/secret")
            .write(toFile: secret + "/private.ics", atomically: false, encoding: .utf8)
        chmod(secret + "/private.ics", 0o600)
        // nobody's own folder, with the service's user's calendar folder in it, and a
        // sticky folder anyone may write (as /tmp), with another of the user's.
        let theirs = try base.makeDirectory("theirs", mode: 0o755)
        let swapped = try base.makeDirectory("theirs/cal", mode: 0o755)
        try #require(chown(theirs, 65534, 65534) == 0)
        try CalendarFeedTests.event(uid: "honest", title: "Honest event", minutes: 40).write(toFile: swapped + "/honest.ics", atomically: true, encoding: .utf8)
        let sticky = try base.makeDirectory("sticky")
        try #require(chmod(sticky, 0o1777) == 0)
        let stickyOwn = try base.makeDirectory("sticky/own", mode: 0o755)
        try CalendarFeedTests.event(uid: "sticky", title: "Sticky own event", minutes: 45).write(toFile: stickyOwn + "/own.ics", atomically: true, encoding: .utf8)
        let mine = try base.makeDirectory("mine", mode: 0o755)
        let later = theirs + "/later", stickyLater = sticky + "/later"
        let calendars = [swapped, later, stickyOwn, stickyLater, mine].map { "\"\($0)\"" }.joined(separator: ", ")
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"], config: #"{"calendars": [\#(calendars)]}"#)
        defer { try? service.stop() }  // the checks are made; a failed stop is reported by its own test

        // nobody moves the calendar aside and puts a link to the private folder in its place,
        // and makes the two that do not exist yet as links to it too.
        let script = "mv '\(swapped)' '\(theirs)/old' && ln -s '\(secret)' '\(swapped)' && ln -s '\(secret)' '\(later)' && ln -s '\(secret)' '\(stickyLater)'"
        let swap = try Tool.run(Locations.tool("setpriv")!, ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c", script],
                                environment: Tool.baseEnvironment(home: "/"), scratch: base)
        try #require(swap.status == 0, "nobody could not swap the folders: \(swap)")
        try CalendarFeedTests.event(uid: "later", title: "Marker", minutes: 60).write(toFile: mine + "/marker.ics", atomically: true, encoding: .utf8)
        var schedule = ""
        #expect(try eventually(timeout: 20, interval: 0.1) {
            schedule = try service.ask("schedule")
            return schedule.contains("Marker")
        }, "the calendars were not read again after the change: \(schedule)")
        #expect(!schedule.contains("Private title"), "the private calendar reached schedule: \(schedule)")
        #expect(schedule.contains("Sticky own event"), "the user's own folder in a sticky folder is read: \(schedule)")
        let link = try service.ask("url ticker")
        #expect(!link.contains("private.example"), "the private link reached url ticker: \(link)")
        let log = service.stderrText
        #expect(log.contains("\(swapped): \(theirs), on the way to it, is a folder owned by uid 65534, not by root: that account could swap what follows for a link to other calendars, so none is read; move the calendars under folders only root can write"),
                "the log names the folder on the way and what to do: \(log)")
        #expect(log.contains("\(stickyLater): it is a symbolic link owned by uid 65534, not by root"), "\(log)")
    }
}
