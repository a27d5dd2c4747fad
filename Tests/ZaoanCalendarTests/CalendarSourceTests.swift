import Foundation
import Testing
@testable import ZaoanCalendar

extension CalendarTests {
    @Suite struct CalendarSourceTests {
        @Test("a vdir: each .ics read, dotfiles and other names ignored, a broken file named, the others kept")
        func vdir() throws {
            guard case .loaded(let set) = CalendarSource(path: Samples.path("vdir")).load() else {
                Issue.record("the folder should load")
                return
            }
            #expect(set.documents.map { URL(fileURLWithPath: $0.source).lastPathComponent } == ["a.ics", "b.ics"])
            #expect(set.problems.count == 1)
            #expect(set.problems.first?.description == Samples.path("vdir") + "/broken.ics: line 2: END:VEVENT where END:VCALENDAR (for line 1) was expected")
            let found = set.occurrences(in: try window(utc(2026, 3, 27), utc(2026, 3, 28)), defaultZone: .utc)
            #expect(found.occurrences.map(\.uid) == ["vdir-b@example.org", "vdir-a@example.org"])
            #expect(found.next(after: utc(2026, 3, 27, 9))?.uid == "vdir-a@example.org")
        }

        @Test("a missing path is waiting, not an error; a single file loads")
        func missingAndFile() throws {
            guard case .waiting(let reason) = CalendarSource(path: "/nonexistent/zaoan-calendar").load() else {
                Issue.record("a missing folder should be waiting")
                return
            }
            #expect(reason.contains("does not exist yet"))
            guard case .loaded(let set) = CalendarSource(path: Samples.path("bare-tzid.ics")).load() else {
                Issue.record("the file should load")
                return
            }
            #expect(set.documents.count == 1)
            #expect(set.problems.count == 1)  // the event in an unknown zone
        }

        @Test("a FIFO and a file over the limit in the folder are refused without blocking")
        func fifoAndSize() throws {
            let folder = NSTemporaryDirectory() + "zaoan-cal-\(getpid())"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            #expect(mkfifo(folder + "/pipe.ics", 0o600) == 0)
            let big = folder + "/big.ics"
            #expect(FileManager.default.createFile(atPath: big, contents: nil))
            #expect(truncate(big, off_t(CalendarLimits.bytesPerFile + 1)) == 0)
            try Data(Samples.bytes("vdir/a.ics")).write(to: URL(fileURLWithPath: folder + "/ok.ics"))
            guard case .loaded(let set) = CalendarSource(path: folder).load() else {
                Issue.record("the folder should load")
                return
            }
            #expect(set.documents.count == 1)
            let messages = set.problems.map(\.description).sorted()
            #expect(messages == [folder + "/big.ics: \(CalendarLimits.bytesPerFile + 1) bytes; at most \(CalendarLimits.bytesPerFile)",
                                 folder + "/pipe.ics: a FIFO, not a file; left alone"])
        }
    }
}
