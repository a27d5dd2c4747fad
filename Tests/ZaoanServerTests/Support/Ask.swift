import Foundation

// The one way the tests send requests to the service: a one-shot connection through
// `RawClient` — connect, write the request lines at once, half-close, read until the
// service closes. `TestService.ask` is the same on a service's own socket, and
// `ask(_:within:until:)` repeats it until the answer is the one awaited.
//
// Left on purpose beside it, because they are what is tested: `zaoan ask` (the client;
// `TestService.zaoan`), netcat, ncat and socat (OneShotTests: the tools users pipe into),
// and `RawClient` itself where the exact bytes and the moment of each close are the point
// (sessions, watches, half-written lines).

/// Sends `requests`, each on its own line, in one write on a one-shot connection, and
/// returns everything the service answers until it closes.
///
/// The descriptor is closed exactly once, also when connecting fails (`RawClient`): the crash
/// test connects thousands of times while the service is down, and a client that closed a
/// failed descriptor twice would close other threads' sockets.
///
/// - Parameters:
///   - path: the service's socket.
///   - timeout: for each read and write; a service that stalls fails the test.
func ask(_ path: String, _ requests: [String], timeout: Double = 5) throws -> String {
    let client = try RawClient(path: path, timeout: timeout)
    try client.send(requests.map { $0 + "\n" }.joined())
    client.shutdownWrite()
    return try client.readToEndText()
}

/// One request (LF added) on a one-shot connection: `ask(path, [request])`.
func ask(_ path: String, _ request: String, timeout: Double = 5) throws -> String {
    try ask(path, [request], timeout: timeout)
}

extension TestService {
    /// A one-shot request on this service's socket.
    func ask(_ request: String, timeout: Double = 5) throws -> String {
        try ZaoanServerTests.ask(socketPath, [request], timeout: timeout)
    }

    /// Asks until the answer satisfies `condition` or `seconds` pass; returns the last answer.
    func ask(_ request: String, within seconds: Double, until condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var last = try ask(request)
        while !condition(last), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            last = try ask(request)
        }
        return last
    }
}

extension TestService {
    /// Descriptors the service holds now (/proc/PID/fd).
    var openDescriptors: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1  // an error: the service is gone; -1 matches no count
    }

    /// The count to compare with later, once the service has settled: the turn that answered
    /// the first request ends by giving back start-up's pages, which holds /proc/self/exe open
    /// for a moment after that answer was read. A request answered after it is answered in a
    /// later turn, so the count read then is not that moment's.
    func settledDescriptors() throws -> Int {
        _ = try ask("ping")
        return openDescriptors
    }
}
