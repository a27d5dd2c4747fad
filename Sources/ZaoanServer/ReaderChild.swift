import Glibc
import ZaoanCalendar
import ZaoanCore
import ZaoanSystem

/// The reader process itself (`zaoan-server calendar-reader`, started by the service with
/// `ReaderProcess`): reads a `ReaderJob` from stdin, expands the recurring rooms and reads
/// and expands the calendars through libical, and writes what it found to stdout
/// (`ReaderWire`). Everything libical does for the service happens here, in a process of
/// its own: one libical call may take seconds, and a file may cost memory, but the service
/// only waits for lines on a pipe, and ends this process when it runs past its budget.
public enum ReaderChild {
    /// Runs the job on stdin; the process's exit status.
    public static func run() -> Int32 {
        guard let job = ReaderJob(decoding: readInput()) else {
            var output = Output()
            output.line(["P", "the reader process was given a job it cannot read (zaoan and zaoan-server of different versions?)"])
            output.flush()
            return 2
        }
        var output = Output()
        let skipped = Set(job.skippedFiles)
        CalendarProgress.fileStarting = { [skipped] source in
            ReaderChild.progress(["F", source])
            return !skipped.contains(source)
        }
        CalendarProgress.seriesStarting = { source, uid in ReaderChild.progress(["S", source, uid]) }
        let known = Dictionary(job.knownFiles.map { ($0.path, $0) }) { first, _ in first }
        CalendarProgress.unchangedFile = { [known] source, identity in
            guard let file = known[source], file.identity == identity else { return nil }
            ReaderChild.progress(["Y", source])
            return file.events
        }
        CalendarProgress.fileRead = { source, identity, events in ReaderChild.progress(["G", source, identity.description, String(events)]) }
        expandRooms(job, into: &output)
        readCalendars(job, into: &output)
        output.line(["D"])
        output.flush()
        return 0
    }

    private static func expandRooms(_ job: ReaderJob, into output: inout Output) {
        let zone = Zone.named(job.zone) ?? .utc
        for room in job.rooms {
            output.flush()
            progress(["R", room.id])
            switch RoomRecurrence.expand(room.series.room(id: room.id), zone: zone, now: job.now, defaultDuration: job.defaultDuration,
                                         ahead: job.roomsAhead, requireInstance: job.checkRooms) {
            case .success(let spans):
                output.line(["O", room.id] + spans.flatMap { [String($0.start), String($0.end)] })
            case .failure(let error):
                output.line(["X", room.id, error.message])
            }
        }
    }

    private static func readCalendars(_ job: ReaderJob, into output: inout Output) {
        guard !job.calendars.isEmpty else { return }
        LibICalLock.run {
            let zone: CalendarZone
            do throws(CalendarZone.Failure) {
                zone = try CalendarZone(named: job.zone)
            } catch {
                zone = .utc
                output.line(["P", "the zone \(job.zone) cannot be read by libical (\(error)); floating and all-day times are read in UTC"])
            }
            let window: CalendarWindow
            do throws(CalendarWindow.Failure) {
                window = try CalendarWindow(from: job.now, to: job.now + job.windowSeconds)
            } catch {
                output.line(["P", "the clock says \(job.now), outside the times a calendar is read for (\(error)); nothing read"])
                return
            }
            for path in job.calendars {
                switch CalendarSource(path: path).load() {
                case .waiting(let reason):
                    output.line(["W", reason])
                case .loaded(let set):
                    let expansion = set.occurrences(in: window, defaultZone: zone)
                    output.line(["L"])
                    if let name = set.name { output.line(["N", path, name]) }
                    for place in Set(set.watchPlaces).sorted() { output.line(["I", place]) }
                    for problem in set.problems + expansion.problems { output.line(["Q", problem.source, problem.description]) }
                    for event in expansion.occurrences {
                        output.line(ReaderWire.eventFields(event))
                    }
                }
            }
        }
    }

    /// A progress line, written at once: if the process is ended in what comes next, the
    /// service knows where it was.
    private static func progress(_ fields: [String]) {
        var bytes: [UInt8] = []
        ReaderWire.append(fields, to: &bytes)
        _ = bytes.withUnsafeBytes { Posix.writeAll(1, $0) }
    }

    private static func readInput() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { raw in (try? syscall("reading the job") { read(0, raw.baseAddress, raw.count) }) ?? 0 }  // a failed read ends the job as EOF does
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }

    /// Answer lines, written in 64 KiB pieces.
    private struct Output {
        var bytes: [UInt8] = []

        mutating func line(_ fields: [String]) {
            ReaderWire.append(fields, to: &bytes)
            if bytes.count >= 65_536 { flush() }
        }

        mutating func flush() {
            guard !bytes.isEmpty else { return }
            _ = bytes.withUnsafeBytes { Posix.writeAll(1, $0) }
            bytes.removeAll(keepingCapacity: true)
        }
    }
}
