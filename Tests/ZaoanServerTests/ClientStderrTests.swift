import Foundation
import Glibc
import Testing

/// What the clients say on stderr arrives whole (`printError` through `Posix.writeAll`),
/// even when stderr is a small non-blocking pipe: a bar or a supervisor may hand over one
/// whose O_NONBLOCK flag is set, and a single write(2) then takes only what fits.
@Suite("zaoan's messages on stderr")
struct ClientStderrTests {
    @Test("a 30,000-byte ERR line reaches a non-blocking 4 KiB stderr pipe whole, then watch exits 1")
    func longErrorThroughFullPipe() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try ClientHardeningTests.FakeServer("longerror", in: directory)
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        _ = fcntl(ends[1], 1031, 4096)  // F_SETPIPE_SZ: one page, far less than the message
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: Locations.zaoan)
        watch.arguments = ["watch", "--socket", server.path, "ping"]
        watch.environment = try TestService.isolatedEnvironment(in: directory)
        watch.standardInput = FileHandle.nullDevice
        watch.standardOutput = FileHandle.nullDevice
        watch.standardError = FileHandle(fileDescriptor: ends[1], closeOnDealloc: false)
        try watch.run()
        close(ends[1])  // the child's copy is the only writer: its exit ends the stream
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) }; watch.waitUntilExit() }

        // Read slowly, in small pieces, so the writer finds the pipe full again and again.
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        var entry = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
        while poll(&entry, 1, 20_000) == 1 {
            let count = read(ends[0], &chunk, chunk.count)
            if count <= 0 { break }
            received += chunk[0..<count]
        }
        watch.waitUntilExit()
        let text = String(decoding: received, as: UTF8.self)
        let expected = "zaoan: ERR " + String(repeating: "x", count: 30_000) + "\n"
        #expect(text.count == expected.count, "stderr held \(received.count) bytes of the \(expected.utf8.count)")
        #expect(text == expected)
        #expect(watch.terminationStatus == 1)
    }
}
