import Foundation
import Glibc
import Testing

/// A service under faketime leaves nothing in /dev/shm, however its test ends: stopped,
/// stuck and killed, or dropped without a stop. Left pairs made later faketime'd tests fail
/// at random (`faketime: sem_open: File exists` when a new wrapper's pid matched one).
@Suite("faketime'd services leave no shared memory behind",
       Sanitizer.skipped("the service runs under faketime, whose LD_PRELOAD the sanitizer runtime does not allow"))
struct FaketimeCleanupTests {
    private static func start() throws -> (TestService, pid_t) {
        var configuration = TestService.Configuration()
        configuration.fakeTime = "2026-12-01 08:00:00"
        let service = try TestService.start(configuration)
        let wrapper = service.process.processIdentifier
        #expect(FaketimeFiles.present(of: wrapper).count == 2,
                "a running wrapper has its pair (the names this test looks for): \(FaketimeFiles.paths(of: wrapper))")
        return (service, wrapper)
    }

    @Test("stopped with SIGTERM: the wrapper removes its semaphore and shared memory")
    func stopped() throws {
        let (service, wrapper) = try Self.start()
        try service.stop()
        #expect(FaketimeFiles.present(of: wrapper).isEmpty, "left: \(FaketimeFiles.present(of: wrapper))")
    }

    @Test("a service that ignores SIGTERM is killed, and nothing of its wrapper stays")
    func stuck() throws {
        let (service, wrapper) = try Self.start()
        service.signal(SIGSTOP)  // SIGTERM now waits: stop() has to kill it
        #expect(throws: TestFailure.self) { try service.stop() }
        #expect(!service.isRunning)
        #expect(FaketimeFiles.present(of: wrapper).isEmpty, "left: \(FaketimeFiles.present(of: wrapper))")
    }

    @Test("a service a test drops without stopping it leaves nothing either")
    func dropped() throws {
        let wrapper: pid_t
        do {
            let (service, pid) = try Self.start()
            wrapper = pid
            withExtendedLifetime(service) {}
        }  // released here: its deinit ends it
        #expect(FaketimeFiles.present(of: wrapper).isEmpty, "left: \(FaketimeFiles.present(of: wrapper))")
    }

    @Test("a pair a killed run left is removed before the next faketime'd start")
    func staleRemoved() throws {
        // A pid that is gone: a process that has exited and been reaped.
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let dead = gone.processIdentifier
        for path in FaketimeFiles.paths(of: dead) { _ = FileManager.default.createFile(atPath: path, contents: Data()) }
        defer { FaketimeFiles.remove(of: dead) }
        let (service, _) = try Self.start()
        #expect(FaketimeFiles.present(of: dead).isEmpty, "a dead wrapper's pair stays: \(FaketimeFiles.present(of: dead))")
        try service.stop()
    }
}
