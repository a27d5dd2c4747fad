import CLinux
import Glibc
import Synchronization
import ZaoanCalendar
import ZaoanSystem
import ZaoanCore

/// Runs a `ReaderJob` in a reader process (`ReaderChild`: this same executable, as
/// `zaoan-server calendar-reader`) and supervises it from a worker thread, never from the
/// loop. The process gets the job on stdin and only its own pipes (every other descriptor
/// closed); it is ended with SIGKILL when
/// - one step (a file, a series, a room — the process names each as it starts it) has used
///   more than `Limits.cpuSecondsPerStep` of CPU: one libical call can take seconds;
/// - it holds more than `Limits.residentBytes` of memory;
/// - the whole job has taken `Limits.wallSeconds`, or the service is stopping.
/// The step it was in is then reported (a file and the event's UID, or a room) and left
/// out, and the job runs again without it, at most `Limits.attempts` times.
enum ReaderProcess {
    enum Limits {
        /// A file's parse or one series (bounded inside by `CalendarLimits`' budgets: this
        /// ends a single libical call that runs on)...
        static let cpuSecondsPerStep = 5.0
        /// ...and one recurring room, which its owner is waiting for (`live add`).
        static let cpuSecondsPerRoom = 1.0
        static let residentBytes = 224 << 20
        static let wallSeconds = 120.0
        static let attempts = 8
    }

    /// Set when the service stops: a job in progress ends within one poll (0.1 s).
    final class StopFlag: Sendable {
        private let value = Atomic<Bool>(false)
        func set() { value.store(true, ordering: .relaxed) }
        var isSet: Bool { value.load(ordering: .relaxed) }
    }

    /// Where the process was when it had to be ended.
    enum Step: Equatable {
        case file(String)
        case series(file: String, uid: String)
        case room(String)
    }

    /// A file left out after it ran past a limit, with what it was then (`FileIdentity`:
    /// a file that changes is read again, and so is one whose identity cannot prove it did
    /// not, `FileIdentity.mayHideChanges`).
    struct Culprit: Hashable, Sendable {
        let path: String
        let identity: FileIdentity
        /// Wall-clock seconds from before the identity was taken.
        let since: Int64

        init?(path: String, since: Int64) {
            guard let identity = FileIdentity(path, in: AT_FDCWD) else { return nil }
            self.path = path
            self.identity = identity
            self.since = since
        }

        var isUnchanged: Bool {
            !identity.mayHideChanges(after: since) && FileIdentity(path, in: AT_FDCWD) == identity
        }
    }

    /// The job's result, with a problem for each step left out (rooms alone: no file to
    /// remember).
    static func run(_ job: ReaderJob, stop: StopFlag, within seconds: Double = Limits.wallSeconds) -> ReaderResult {
        var culprits = Set<Culprit>()
        return run(job, stop: stop, culprits: &culprits, now: 0, within: seconds)  // kept by no one: any time does
    }

    /// The same, leaving out the files of `culprits` that have not changed since; the files
    /// that run past a limit now join them, as they are after `now` (wall-clock seconds).
    static func run(_ job: ReaderJob, stop: StopFlag, culprits: inout Set<Culprit>, now: Int64,
                    within seconds: Double = Limits.wallSeconds) -> ReaderResult {
        var job = job
        culprits = culprits.filter(\.isUnchanged)
        job.skippedFiles = culprits.map(\.path).sorted()
        var problems: [String] = []
        var refused: [String: String] = [:]
        let started = Posix.monotonicSeconds()
        for _ in 0..<Limits.attempts {
            let run: Run
            do throws(SystemError) {
                run = try Self.run(job, stop: stop, deadline: started + seconds)
            } catch {
                problems.append("cannot start the calendar reader (\(error)); calendars and recurring rooms are not expanded")
                return ReaderResult(problems: problems, refusedRooms: refused)
            }
            switch run {
            case .finished(var result):
                result.problems = problems + result.problems
                result.refusedRooms.merge(refused) { $1 }
                return result
            case .ended(let step, let why):
                guard !stop.isSet else { return ReaderResult(problems: problems) }
                switch step {
                case .file(let path), .series(let path, _):
                    let uid: String? = if case .series(_, let uid) = step { uid } else { nil }
                    problems.append(CalendarProblem(source: path, uid: uid, message: "\(why); the file is left out until it changes").description)
                    if let culprit = Culprit(path: path, since: now) { culprits.insert(culprit) }
                    job.skippedFiles.append(path)
                case .room(let id):
                    let rule = job.rooms.first { $0.id == id }.map { RequestParser.shorten($0.series.rule) } ?? "?"
                    refused[id] = "repeat=\(rule) \(why) to expand; choose a rule that matches more often or starts later"
                    job.rooms.removeAll { $0.id == id }
                case nil:
                    problems.append("the calendar reader \(why); the rest is not shown until the next reading")
                    return ReaderResult(problems: problems, refusedRooms: refused)
                }
            }
        }
        problems.append("the calendar reader was ended \(Limits.attempts) times; the rest is not shown until the next reading")
        return ReaderResult(problems: problems, refusedRooms: refused)
    }

    private enum Run {
        case finished(ReaderResult)
        case ended(Step?, String)
    }

    /// One reader process: started, given the job, followed to its end.
    /// - Throws: when it could not be started (no pipe, no process).
    private static func run(_ job: ReaderJob, stop: StopFlag, deadline: Double) throws(SystemError) -> Run {
        let toChild = try PipeEnds("creating the calendar reader's pipes")
        let fromChild = try PipeEnds("creating the calendar reader's pipes")
        let pid = try syscall("posix_spawn of /proc/self/exe") { spawn(input: toChild.readEnd.rawValue, output: fromChild.writeEnd.rawValue) }
        toChild.readEnd.close()  // the child has its copies
        fromChild.writeEnd.close()
        // The reader reads its whole job before it writes anything.
        let input = toChild.writeEnd
        let sent = job.encoded.withUnsafeBytes { Posix.writeAll(input.rawValue, $0) }
        input.close()
        var supervisor = Supervisor(pid: pid)
        let outcome = sent ? supervisor.follow(fromChild.readEnd.rawValue, stop: stop, deadline: deadline) : .ended(nil, "stopped before it read its job")
        if case .finished = outcome {} else { kill(pid, SIGKILL) }
        var status: Int32 = 0
        _ = try? syscall("waiting for the calendar reader") { waitpid(pid, &status, 0) }  // ECHILD only: reaped, status stays 0
        if case .finished = outcome, status != 0 {
            return .ended(supervisor.step, "ended with status \(status)")
        }
        return outcome
    }

    /// Starts this executable as `zaoan calendar-reader` (the process is `zaoan` to `ps`).
    private static func spawn(input: Int32, output: Int32) -> pid_t {
        var environment = ProcessEnvironment.current()
        environment["SWIFT_BACKTRACE"] = "enable=no"  // a crash ends the reader at once
        let copy = { (text: String) -> UnsafeMutablePointer<CChar>? in strdup(text) }
        let argv = ["zaoan", "calendar-reader"].map(copy) + [nil]
        let envp = environment.map { copy("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        return zaoan_spawn_with_pipes("/proc/self/exe", argv, envp, input, output)
    }

    /// Reads the reader's answers while watching its CPU time and memory.
    private struct Supervisor {
        let pid: pid_t
        var step: Step?
        /// The reader's CPU time when `step` began, as last sampled.
        var stepStartedAt = 0.0
        /// Its CPU time and memory, sampled at most every `sampleSeconds` (a reading of
        /// 10,000 series starts 10,000 steps: two /proc reads each would be most of the cost).
        var usage: ProcessUsage?
        var sampledAt = -Double.infinity
        static let sampleSeconds = 0.05
        var result = ReaderResult()
        var framer = LineFramer(lineLimit: ReaderWire.maxLineBytes)
        var done = false

        init(pid: pid_t) { self.pid = pid }

        mutating func follow(_ fd: Int32, stop: StopFlag, deadline: Double) -> Run {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&entry, 1, 100)
                if ready > 0 {
                    let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                    if count == 0 { return done ? .finished(result) : .ended(step, "stopped before it finished (it crashed?)") }
                    if count > 0 {
                        guard let lines = buffer.withUnsafeBytes({ ReaderWire.lines(in: UnsafeRawBufferPointer(rebasing: $0[..<count]), framer: &framer) }) else {
                            return .ended(step, "sent a line longer than \(ReaderWire.maxLineBytes) bytes")
                        }
                        for fields in lines { take(fields) }
                    }
                }
                if stop.isSet { return .ended(nil, "was stopped with the service") }
                if Posix.monotonicSeconds() > deadline { return .ended(nil, "ran past its time") }
                let now = Posix.monotonicSeconds()
                guard now - sampledAt >= Self.sampleSeconds else { continue }
                sampledAt = now
                usage = ProcessUsage(pid: pid)
                if let cpu = usage?.cpuSeconds, let step {
                    let limit = if case .room = step { Limits.cpuSecondsPerRoom } else { Limits.cpuSecondsPerStep }
                    if cpu - stepStartedAt > limit { return .ended(step, "took more than \(limit) s of CPU in libical") }
                }
                if let resident = usage?.residentBytes, resident > Limits.residentBytes {
                    return .ended(step, "needed more than \(Limits.residentBytes >> 20) MB of memory")
                }
            }
        }

        private mutating func take(_ fields: [String]) {
            func number(_ index: Int) -> Int64 { index < fields.count ? Int64(fields[index]) ?? 0 : 0 }
            func text(_ index: Int) -> String? { index < fields.count && !fields[index].isEmpty ? fields[index] : nil }
            switch fields.first {
            case "F", "S", "R":
                switch (fields.first, fields.count) {
                case ("F", 2): step = .file(fields[1])
                case ("S", 3): step = .series(file: fields[1], uid: fields[2])
                case ("R", 2): step = .room(fields[1])
                default: return
                }
                stepStartedAt = usage?.cpuSeconds ?? 0
            case "W": result.waiting += 1; text(1).map { result.keep(problem: $0) }
            case "L": result.loaded += 1
            case "N" where fields.count == 3: result.names[fields[1]] = fields[2]
            case "I" where fields.count == 2:
                if result.watchPlaces.count < ReaderResult.keptWatchPlaces { result.watchPlaces.insert(fields[1]) } else { result.watchPlacesNotKept += 1 }
            case "P": text(1).map { result.keep(problem: $0) }
            case "Q" where fields.count == 3:
                if result.problemCount < ReaderResult.keptProblems {
                    result.sourceProblems.append(.init(source: fields[1], text: fields[2]))
                } else {
                    result.problemsNotKept += 1
                }
            case "Y" where fields.count == 2: result.unchangedFiles.append(fields[1])
            case "G" where fields.count == 4:
                if let identity = FileIdentity(fields[2]), let events = Int(fields[3]) {
                    result.readFiles[fields[1]] = .init(identity: identity, events: events)
                }
            case "E": ReaderWire.event(fields).map { result.events.append($0) }
            case "O" where fields.count % 2 == 0:
                let values = fields.dropFirst(2).map { Int64($0) ?? 0 }
                result.rooms[fields[1]] = stride(from: 0, to: values.count, by: 2).map { OccurrenceSpan(start: values[$0], end: values[$0 + 1]) }
            case "X" where fields.count == 3: result.refusedRooms[fields[1]] = fields[2]
            case "D": done = true; result.finished = true
            default: break
            }
        }
    }
}

/// A process's CPU time and resident memory, from /proc/PID/stat and /proc/PID/statm.
struct ProcessUsage {
    let cpuSeconds: Double
    let residentBytes: Int

    init?(pid: pid_t) {
        guard let stat = Self.read("/proc/\(pid)/stat"), let close = stat.lastIndex(of: UInt8(ascii: ")")),
              let statm = Self.read("/proc/\(pid)/statm") else { return nil }
        // After the command's ")": state is field 3, utime 14 and stime 15 (proc(5)).
        let fields = stat[(close + 2)...].split(separator: 0x20)
        let pages = statm.split(separator: 0x20)
        guard fields.count > 12, pages.count > 1, let user = Double(String(decoding: fields[11], as: UTF8.self)),
              let system = Double(String(decoding: fields[12], as: UTF8.self)),
              let resident = Int(String(decoding: pages[1], as: UTF8.self)) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        cpuSeconds = (user + system) / ticks
        residentBytes = resident.multipliedReportingOverflow(by: Int(sysconf(Int32(_SC_PAGESIZE)))).partialValue
    }

    private static func read(_ path: String) -> [UInt8]? {
        // Either fails only when the reader is gone: its usage is then not needed.
        guard let file = try? Descriptor.open(path, O_RDONLY, "opening \(path)") else { return nil }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { (try? file.read(into: $0, "reading \(path)")) ?? 0 }
        return count > 0 ? Array(buffer[..<count]) : nil
    }
}
