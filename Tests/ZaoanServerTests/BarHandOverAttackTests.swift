import Foundation
import Glibc
import Testing

/// A handed-over pipe is shared with whoever sent it: its file status flags (O_NONBLOCK)
/// live on the open file description, which the sender holds too. An attacker that clears
/// O_NONBLOCK, fills the pipe and never reads must not block the service's one thread.
@Suite("a handed-over pipe cannot freeze the service", .serialized)
struct BarHandOverAttackTests {
    /// How long the attacker holds its full, blocking pipe.
    static let holdSeconds = 15.0


    @Test("an attacker that clears O_NONBLOCK on its pipe and fills it: pings keep being answered within 1 s",
          .enabled(if: Neighbour.unavailable == nil, "\(Neighbour.unavailable ?? "")"),
          arguments: [(uid_t(65534), "answer"), (uid_t(0), "handed-over")])
    func blockingPipe(uid: uid_t, expectedAnswer: String) throws {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"])
        defer { try? service.stop() }
        service.openToEveryone()
        let baseline = try service.settledDescriptors()

        let attacker = try Neighbour(uid: uid, ["fill-pipe", service.socketPath, String(Self.holdSeconds)])
        let report = try attacker.report()
        // The service's own uid (root here) may hand over; any other account is answered on the socket.
        #expect(report.answers == [expectedAnswer: 1], "uid \(uid): \(report.answers)")
        #expect((report.filled ?? 0) > 0, "the attacker filled its pipe: \(report)")

        var worst = 0.0
        var failures: [String] = []
        var pings = 0
        let end = Date().addingTimeInterval(Self.holdSeconds + 1)
        while Date() < end {
            let started = Date()
            do {
                let answer = try ask(service.socketPath, "ping", timeout: 30)
                if answer != "pong\n" { failures.append(answer.debugDescription) }
            } catch {
                failures.append("\(error)")
            }
            worst = max(worst, Date().timeIntervalSince(started))
            pings += 1
            usleep(50_000)
        }
        print("pipe attack by uid \(uid): \(pings) pings, worst \(String(format: "%.3f", worst)) s, \(failures.count) failed")
        #expect(failures.isEmpty, "pings failed during the attack: \(failures.prefix(3))")
        #expect(worst < 1, "the worst ping took \(worst) s while uid \(uid) held a full blocking pipe")

        attacker.release()
        #expect(eventually(timeout: 10, interval: 0.1) { service.openDescriptors == baseline },
                "descriptors: \(baseline) before the attack, \(service.openDescriptors) after")
        #expect(try service.ask("ping") == "pong\n")
    }
}
