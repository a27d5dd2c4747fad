import Foundation
import Testing

/// `zaoan check-config` against files on disk: what `serve` and `reload` would accept.
@Suite("check-config on real files")
struct ConfigCheckTests {
    @Test("admin_group must name a group that exists")
    func adminGroupMustExist() throws {
        let service = try TestService.start()
        defer { try? service.stop() }
        let directory = service.directory.path
        let good = directory + "/good.json"
        let bad = directory + "/bad.json"
        try #"{"admin_group": "root"}"#.write(toFile: good, atomically: true, encoding: .utf8)
        try #"{"admin_group": "zaoan-no-such-group"}"#.write(toFile: bad, atomically: true, encoding: .utf8)

        let accepted = try service.zaoan(["check-config", good])
        #expect(accepted.status == 0, "\(accepted)")
        let refused = try service.zaoan(["check-config", bad])
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.errorOutput.contains("admin_group") && refused.errorOutput.contains("zaoan-no-such-group"), "\(refused)")
    }
}
