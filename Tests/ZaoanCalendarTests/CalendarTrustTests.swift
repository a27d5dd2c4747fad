import Foundation
import Glibc
import Testing
@testable import ZaoanCalendar

/// Calendar folders another account can reach: what it plants or owns is never read, and
/// the user's own symbolic links keep working. Real files, links and owners (uid 65534 is
/// `nobody`); the ownership cases need root to chown and are skipped, saying so, otherwise.
extension CalendarTests {
    @Suite struct CalendarTrustTests {
        static let nobody: uid_t = 65534
        static var notRoot: Bool { geteuid() != 0 }

        /// A VCALENDAR with one event titled `title`.
        static func calendar(_ title: String) -> String {
            ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//zaoan tests//EN", "BEGIN:VEVENT", "UID:\(title)@test",
             "DTSTAMP:20260101T000000Z", "DTSTART:20260327T090000Z", "DTEND:20260327T100000Z", "SUMMARY:\(title)",
             "END:VEVENT", "END:VCALENDAR", ""].joined(separator: "\r\n")
        }

        /// A fresh directory (mode 0700, ours) for one test.
        final class Scratch {
            let path: String
            init() throws {
                var template = Array((NSTemporaryDirectory() + "zaoan-trust-XXXXXX").utf8CString)
                guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
                    throw CocoaError(.fileWriteUnknown)
                }
                path = String(decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            func folder(_ name: String, mode: mode_t = 0o755) throws -> String {
                let folder = path + "/" + name
                #expect(mkdir(folder, mode) == 0 && chmod(folder, mode) == 0, "mkdir \(folder)")
                return folder
            }
            func write(_ file: String, _ text: String, mode: mode_t = 0o644) throws {
                try text.write(toFile: file, atomically: false, encoding: .utf8)
                #expect(chmod(file, mode) == 0)
            }
            deinit { try? FileManager.default.removeItem(atPath: path) }  // best effort: the test has its answer
        }

        static func titles(_ state: CalendarSource.State) -> [String] {
            guard case .loaded(let set) = state else { return [] }
            return set.documents.flatMap(\.events).compactMap(\.title).sorted()
        }

        static func problems(_ state: CalendarSource.State) -> [String] {
            guard case .loaded(let set) = state else { return ["waiting"] }
            return set.problems.map(\.description)
        }

        @Test("a link nobody planted to the service's private file is not followed; the user's own link is",
              .disabled(if: notRoot, "needs root to give a link to uid 65534 (lchown)"))
        func plantedLink() throws {
            let scratch = try Scratch()
            let folder = try scratch.folder("cal")
            let elsewhere = try scratch.folder("synced")
            try scratch.write(scratch.path + "/private.ics", Self.calendar("Private title"), mode: 0o600)
            try scratch.write(elsewhere + "/team.ics", Self.calendar("Team"))
            try scratch.write(folder + "/plain.ics", Self.calendar("Plain"))
            #expect(symlink("../synced/team.ics", folder + "/own.ics") == 0)
            #expect(symlink(scratch.path + "/private.ics", folder + "/mine.ics") == 0)
            #expect(lchown(folder + "/mine.ics", Self.nobody, Self.nobody) == 0)
            let state = CalendarSource(path: folder).load()
            #expect(Self.titles(state) == ["Plain", "Team"], "the own link is followed, the planted one not: \(Self.titles(state))")
            #expect(Self.problems(state) == ["\(folder)/mine.ics: a symbolic link owned by uid 65534, not by root; not read, as another account could have changed it"],
                    "\(Self.problems(state))")
        }

        @Test("a link of the user's own is not followed to a file another account owns or could replace",
              .disabled(if: notRoot, "needs root to give a file to uid 65534 (chown)"))
        func ownLinkToForeignFile() throws {
            let scratch = try Scratch()
            let folder = try scratch.folder("cal")
            let open = try scratch.folder("open", mode: 0o777)
            try scratch.write(scratch.path + "/theirs.ics", Self.calendar("Theirs"))
            #expect(chown(scratch.path + "/theirs.ics", Self.nobody, Self.nobody) == 0)
            try scratch.write(open + "/swappable.ics", Self.calendar("Swappable"))
            #expect(symlink(scratch.path + "/theirs.ics", folder + "/a.ics") == 0)
            #expect(symlink(open + "/swappable.ics", folder + "/b.ics") == 0)
            let state = CalendarSource(path: folder).load()
            #expect(Self.titles(state).isEmpty, "\(Self.titles(state))")
            let problems = Self.problems(state)
            #expect(problems.count == 2, "\(problems)")
            #expect(problems.first?.hasPrefix("\(folder)/a.ics: a symbolic link to \(scratch.path)/theirs.ics, a file owned by uid 65534") == true, "\(problems)")
            #expect(problems.last?.hasPrefix("\(folder)/b.ics: a symbolic link to \(open)/swappable.ics, whose folder is writable by every account (mode 777)") == true, "\(problems)")
        }

        @Test("a folder another account can write is not read at all, and the problem names it")
        func writableFolder() throws {
            let scratch = try Scratch()
            let folder = try scratch.folder("shared", mode: 0o1777)
            try scratch.write(folder + "/meeting.ics", Self.calendar("Meeting"))
            let state = CalendarSource(path: folder).load()
            #expect(Self.titles(state).isEmpty)
            #expect(Self.problems(state).count == 1)
            #expect(Self.problems(state).first?.hasPrefix("\(folder): a folder writable by every account (mode 1777): another account could plant or replace calendars in it, so none is read") == true,
                    "\(Self.problems(state))")
            // A single configured file in such a folder is refused the same way.
            let file = CalendarSource(path: folder + "/meeting.ics").load()
            #expect(Self.titles(file).isEmpty && Self.problems(file).first?.hasPrefix("\(folder): a folder writable by every account") == true, "\(Self.problems(file))")
            // Group-writable is refused too; the fix makes it readable.
            #expect(chmod(folder, 0o775) == 0)
            #expect(Self.problems(CalendarSource(path: folder).load()).first?.contains("writable by the members of group") == true)
            #expect(chmod(folder, 0o755) == 0)
            #expect(Self.titles(CalendarSource(path: folder).load()) == ["Meeting"])
        }

        @Test("a folder or a file owned by another account is refused; one of root's is read",
              .disabled(if: notRoot, "needs root to chown to uid 65534"))
        func foreignOwners() throws {
            let scratch = try Scratch()
            let theirs = try scratch.folder("theirs")
            try scratch.write(theirs + "/x.ics", Self.calendar("X"))
            #expect(chown(theirs, Self.nobody, Self.nobody) == 0)
            let folderState = CalendarSource(path: theirs).load()
            #expect(Self.titles(folderState).isEmpty)
            #expect(Self.problems(folderState).first?.hasPrefix("\(theirs): a folder owned by uid 65534") == true, "\(Self.problems(folderState))")

            let mine = try scratch.folder("mine")
            try scratch.write(mine + "/given.ics", Self.calendar("Given"))
            try scratch.write(mine + "/kept.ics", Self.calendar("Kept"))
            #expect(chown(mine + "/given.ics", Self.nobody, Self.nobody) == 0)
            let fileState = CalendarSource(path: mine).load()
            #expect(Self.titles(fileState) == ["Kept"])
            #expect(Self.problems(fileState) == ["\(mine)/given.ics: a file owned by uid 65534, not by root; not read, as another account could have changed it"],
                    "\(Self.problems(fileState))")
        }
    }
}
