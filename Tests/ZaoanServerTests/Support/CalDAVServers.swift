import Foundation
import Testing

/// The CalDAV servers the CalDAV test runs, each Debian's own package on a free loopback
/// port with its storage in the test's directory, no authentication (any user name and
/// password is accepted).
enum CalDAVSoftware: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// Radicale 3: a user owns the collections under `/USER/`.
    case radicale
    /// xandikos (a git repository per collection): one principal, `/user/`, whose
    /// calendars live under `/user/calendars/`; `--autocreate` makes both.
    case xandikos

    var testDescription: String { rawValue }
    /// The executable, which is also its Debian package's name.
    var tool: String { rawValue }

    /// Starts the server, its storage and log in `world`.
    func start(executable: String, in world: TemporaryDirectory, environment: [String: String]) throws -> CalDAVServer {
        switch self {
        case .radicale:
            let storage = try world.makeDirectory("radicale-storage")
            let server = try LoopbackServer(name: "radicale", executable: executable, environment: environment, in: world) { port in
                try world.write("radicale.conf", """
                    [server]
                    hosts = 127.0.0.1:\(port)
                    [auth]
                    type = none
                    [rights]
                    type = owner_only
                    [storage]
                    filesystem_folder = \(storage)
                    [web]
                    type = none
                    [logging]
                    level = info
                    mask_passwords = True

                    """)
                // --config replaces the default list (/etc/radicale/config, ~/.config/radicale/config).
                return ["--config", world.file("radicale.conf")]
            }
            return CalDAVServer(process: server, account: server.url + "/alice/", calendar: server.url + "/alice/work/")
        case .xandikos:
            let root = try world.makeDirectory("xandikos-root")
            let server = try LoopbackServer(name: "xandikos", executable: executable, environment: environment, in: world) { port in
                ["--autocreate", "--directory", root, "--listen-address", "127.0.0.1", "--port", String(port)]
            }
            return CalDAVServer(process: server, account: server.url + "/user/", calendar: server.url + "/user/calendars/work/")
        }
    }
}

/// A running CalDAV server: where the account is (vdirsyncer's `url`, from which discover
/// finds the calendars) and the URL of the calendar `work` the test makes.
struct CalDAVServer {
    let process: LoopbackServer
    let account: String
    let calendar: String
    func stop() { process.stop() }
}

/// CalDAV requests through curl, as user `alice`.
struct HTTP {
    let curl: String
    let environment: [String: String]
    let scratch: TemporaryDirectory
    let server: LoopbackServer

    /// Sends `method` to `url` (with an iCalendar `body`) and throws unless the status is one of `statuses`.
    func expect(_ statuses: Set<Int>, _ method: String, _ url: String, body: String? = nil) throws {
        var arguments = ["--silent", "--show-error", "--max-time", "30", "--user", "alice:secret", "--request", method,
                         "--output", "/dev/stderr", "--write-out", "%{http_code}"]
        if body != nil { arguments += ["--header", "Content-Type: text/calendar; charset=utf-8", "--data-binary", "@-"] }
        let result = try Tool.run(curl, arguments + [url], stdin: body.map { Data($0.utf8) }, environment: environment,
                                  timeout: 40, scratch: scratch)
        guard result.status == 0, let code = Int(result.output), statuses.contains(code) else {
            throw TestFailure("curl \(method) \(url) should answer \(statuses.sorted()): \(result); \(server.name) log: \(server.log.suffix(2000))")
        }
    }
}
