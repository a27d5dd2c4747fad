import Glibc
import Testing
@testable import ZaoanSystem

/// A pipe's two ends, to be owned by Descriptors at once.
private func pipeEnds(nonBlocking: Bool = false) throws -> (Int32, Int32) {
    var ends: [Int32] = [-1, -1]
    _ = try syscall("pipe") { pipe(&ends) }
    if nonBlocking { for end in ends { try Posix.setNonBlocking(end) } }
    return (ends[0], ends[1])
}

private func isOpen(_ fd: Int32) -> Bool { fcntl(fd, F_GETFD) != -1 }

/// Starts `body` on a thread of its own (pthread, so the test can signal that thread).
private final class Helper: @unchecked Sendable {
    let body: () -> Void
    var thread = pthread_t()
    init(_ body: @escaping () -> Void) throws {
        self.body = body
        // The thread holds the helper until it ends, whatever the test does meanwhile.
        let retained = Unmanaged.passRetained(self)
        let result = pthread_create(&thread, nil, { raw in
            let helper = Unmanaged<Helper>.fromOpaque(raw!).takeRetainedValue()
            helper.body()
            return nil
        }, retained.toOpaque())
        guard result == 0 else {
            retained.release()
            throw SystemError(errno: result, "pthread_create")
        }
    }
    func join() { pthread_join(thread, nil) }
}

/// A handler that does nothing, installed without SA_RESTART: a blocked read(2) in the
/// signalled thread then fails with EINTR, as it does under a real signal.
private func installInterruptingHandler() {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in }
    action.sa_flags = 0
    sigemptyset(&action.sa_mask)
    sigaction(SIGUSR2, &action, nil)
}

@Suite("One syscall helper and one owned descriptor", .serialized)
struct SyscallTests {
    @Test("a read interrupted by a signal (EINTR) is retried and returns the data; without retry it throws EINTR")
    func interruptedReadIsRetried() throws {
        installInterruptingHandler()
        for retry in [true, false] {
            let (readEnd, writeEnd) = try pipeEnds()
            let reader = Descriptor(taking: readEnd), writer = Descriptor(taking: writeEnd)
            let readerFD = reader.rawValue
            let outcome = Outcome()
            let finished = Atomic(false)
            // The read runs on a thread of its own with SIGUSR2 unblocked (the test runner's
            // threads may block signals), and this thread signals it until the read returns.
            let helper = try Helper {
                Signals.unblock([SIGUSR2])
                var byte: UInt8 = 0
                outcome.result = Result { () throws(SystemError) in
                    try syscall(retryOnInterrupt: retry, "reading the pipe") { () -> Int in
                        outcome.calls += 1
                        return read(readerFD, &byte, 1)
                    }
                }
                outcome.byte = byte
                finished.value = true
            }
            var sent = 0
            while !finished.value {
                pthread_kill(helper.thread, SIGUSR2)
                sent += 1
                // The data comes after some interruptions, and in any case after 2 s, so a read
                // that was never interrupted ends the test instead of hanging it.
                if sent == (retry ? 20 : 200) { var byte: UInt8 = 0x41; _ = write(writer.rawValue, &byte, 1) }
                usleep(10_000)
            }
            helper.join()
            if retry {
                #expect((try? outcome.result?.get()) == 1 && outcome.byte == 0x41, "\(String(describing: outcome.result))")
                #expect(outcome.calls > 1, "the read was interrupted and tried again (\(outcome.calls) calls)")
            } else {
                guard case .failure(let error)? = outcome.result else {
                    Issue.record("without retry an interrupted read throws; got \(String(describing: outcome.result))")
                    continue
                }
                #expect(error.errno == EINTR && error.description.hasPrefix("reading the pipe: "), "\(error)")
                #expect(outcome.calls == 1)
            }
        }
    }

    @Test("a drained non-blocking descriptor is .wouldBlock, not an error; a real failure throws with what was done")
    func wouldBlock() throws {
        let (readEnd, writeEnd) = try pipeEnds(nonBlocking: true)
        let reader = Descriptor(taking: readEnd), writer = Descriptor(taking: writeEnd)
        defer { _ = writer.rawValue }
        var byte: UInt8 = 0
        let fd = reader.rawValue
        guard case .wouldBlock = try nonBlockingSyscall("reading", { read(fd, &byte, 1) }) else {
            Issue.record("an empty non-blocking pipe should be .wouldBlock")
            return
        }
        #expect(throws: SystemError.self) { try nonBlockingSyscall("reading a closed descriptor", { read(-1, &byte, 1) }) }
    }

    @Test("a Descriptor closes its number when it ends, and not when it is released")
    func descriptorOwnership() throws {
        var number: Int32 = -1
        do {
            let file = try Descriptor.open("/dev/null", O_RDONLY, "opening /dev/null")
            number = file.rawValue
            #expect(isOpen(number))
        }
        #expect(!isOpen(number), "closed at the end of its scope")

        let released = try Descriptor.open("/dev/null", O_RDONLY, "opening /dev/null").release()
        #expect(isOpen(released), "released: the caller closes it")
        Posix.close(released)

        let file = try Descriptor.open("/dev/null", O_RDONLY, "opening /dev/null")
        number = file.rawValue
        file.close()
        #expect(!isOpen(number))
        #expect(fcntl(try Descriptor.open("/dev/null", O_RDONLY, "").rawValue, F_GETFD) & FD_CLOEXEC != 0, "close-on-exec always")
    }

    @Test("writeAll puts 1 MiB through a non-blocking 64 KiB pipe with a slow reader: every byte, in order")
    func writeAllThroughAFullPipe() throws {
        let (readEnd, writeEnd) = try pipeEnds(nonBlocking: true)
        let reader = Descriptor(taking: readEnd), writer = Descriptor(taking: writeEnd)
        let payload = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        let readerFD = reader.rawValue
        let received = Box()
        let helper = try Helper {
            var chunk = [UInt8](repeating: 0, count: 1000)  // small reads: the writer meets a full pipe
            var entry = pollfd(fd: readerFD, events: Int16(POLLIN), revents: 0)
            // Until the end, or 10 s without a byte (a writer that gave up).
            while (try? syscall("poll") { poll(&entry, 1, 10_000) }) == 1 {
                let count = chunk.withUnsafeMutableBytes { raw in (try? syscall("read") { read(readerFD, raw.baseAddress, raw.count) }) ?? 0 }
                if count == 0 { return }
                received.bytes += chunk[0..<count]
            }
        }
        let written = payload.withUnsafeBytes { raw in Result { () throws(SystemError) in try writer.writeAll(raw, "writing the pipe") } }
        writer.close()  // the reader sees the end, then the test joins it
        helper.join()
        if case .failure(let error) = written { Issue.record("writeAll failed: \(error)") }
        #expect(received.bytes.count == payload.count)
        #expect(received.bytes == payload)
    }

    @Test("writeAll to a full pipe nobody reads gives up at its deadline with ETIMEDOUT")
    func writeAllDeadline() throws {
        let (readEnd, writeEnd) = try pipeEnds(nonBlocking: true)
        let reader = Descriptor(taking: readEnd), writer = Descriptor(taking: writeEnd)
        let payload = [UInt8](repeating: 0x78, count: 1 << 20)
        let deadline = Posix.monotonicSeconds() + 0.3
        let result = payload.withUnsafeBytes { raw in Result { () throws(SystemError) in try writer.writeAll(raw, until: deadline, "writing the pipe") } }
        #expect(Posix.monotonicSeconds() >= deadline)
        guard case .failure(let error) = result else {
            Issue.record("1 MiB cannot fit a pipe nobody reads")
            return
        }
        #expect(error.errno == ETIMEDOUT, "\(error)")
        _ = reader.rawValue
    }

    @Test("the framer's limit is per framer: the clients' 64 KiB, the service's 4096 bytes")
    func framerLimit() {
        for limit in [8, LineFramer.maxLineLength, 64 * 1024] {
            var framer = LineFramer(lineLimit: limit)
            var lines: [Int] = []
            var tooLong = 0
            let input = [UInt8](repeating: 0x61, count: limit) + [0x0D, 0x0A] + [UInt8](repeating: 0x62, count: limit + 1) + [0x0A]
            input.withUnsafeBytes { raw in
                framer.feed(raw) { frame in
                    if case .line(let bytes) = frame { lines.append(bytes.count) } else { tooLong += 1 }
                    return true
                }
            }
            #expect(lines == [limit] && tooLong == 1, "limit \(limit): \(lines), \(tooLong)")
        }
        #expect(LineFramer().lineLimit == LineFramer.maxLineLength)
    }

    @Test("closing a number that is not open (a second close) traps, as swift-nio's close does")
    func doubleCloseTraps() async {
        await #expect(processExitsWith: .failure) {
            let (readEnd, writeEnd) = try pipeEnds()
            Posix.close(writeEnd)
            Posix.close(readEnd)
            Posix.close(readEnd)  // the second close of the same number
        }
    }

    @Test("a call that returns its error number throws it; a negative error number is negated; a failure after the call reads errno")
    func errorConventions() throws {
        #expect(throws: Never.self) { try errorNumberCall("nothing") { 0 } }
        let returned = #expect(throws: SystemError.self) { try errorNumberCall("pthread_create") { EAGAIN } }
        #expect(returned?.errno == EAGAIN && returned?.operation == "pthread_create")
        #expect(try negativeErrnoCall("sd_notify") { 3 } == 3)
        let negated = #expect(throws: SystemError.self) { _ = try negativeErrnoCall("sd_notify") { -ENOENT } }
        #expect(negated?.errno == ENOENT)
        let lowest = #expect(throws: SystemError.self) { _ = try negativeErrnoCall("sd_notify") { Int32.min } }
        #expect(lowest?.errno == EINVAL, "Int32.min cannot be negated: it is no error number")
        #expect(fcntl(-1, F_GETFD) == -1)
        let failure = syscallFailure("checking -1")
        #expect(failure.errno == EBADF && failure.operation == "checking -1")
    }

    @Test("a pipe's ends are open, close-on-exec and closed with their owners, each on its own")
    func pipeEndsAreOwned() throws {
        let numbers: (Int32, Int32)
        do {
            let ends = try PipeEnds("pipe")
            numbers = (ends.readEnd.rawValue, ends.writeEnd.rawValue)
            #expect(fcntl(numbers.0, F_GETFD) & FD_CLOEXEC != 0 && fcntl(numbers.1, F_GETFD) & FD_CLOEXEC != 0)
            ends.writeEnd.close()
            #expect(!isOpen(numbers.1) && isOpen(numbers.0))
        }
        #expect(!isOpen(numbers.0))
    }
}

private final class Box: @unchecked Sendable { var bytes: [UInt8] = [] }

/// What the reading thread saw (read by the test after joining it).
private final class Outcome: @unchecked Sendable {
    var result: Result<Int, SystemError>?
    var calls = 0
    var byte: UInt8 = 0
}

/// A flag shared with the helper thread (written by one, read by the other).
private final class Atomic: @unchecked Sendable {
    private var stored: Bool
    private var lock = pthread_mutex_t()
    init(_ value: Bool) { stored = value; pthread_mutex_init(&lock, nil) }
    var value: Bool {
        get { pthread_mutex_lock(&lock); defer { pthread_mutex_unlock(&lock) }; return stored }
        set { pthread_mutex_lock(&lock); stored = newValue; pthread_mutex_unlock(&lock) }
    }
}
