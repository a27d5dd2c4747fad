import Foundation
import Testing

/// Issue 34, point 5: a request's path makes no exclusivity check at run time
/// (docs/benchmarks.md, "Exclusivity checks, proved at build time"; docs/development.md,
/// "Exclusivity and reference counts"). Swift checks an access to a class's property at run
/// time (`swift_beginAccess`) unless the compiler proves that no two accesses to it can
/// overlap, and one change of the property made in place across a call into the runtime
/// (an array that grows) is enough to lose that proof for every access to it, anywhere.
/// Such checks were a third of a request's own instructions, and nothing in the code shows
/// where one comes back: this reads the release binary users get, function by function,
/// for calls to `swift_beginAccess`.
@Suite struct RequestPathAccessTests {
    /// The functions of the service's own code that every `ping`, `greeting`, `time`,
    /// `status` and `countdown` on a session runs through (callgrind, `bench/callgrind.sh`),
    /// as `swift demangle --simplified --compact` names them. The checks left elsewhere are on
    /// paths a request does not take (a connection opened or closed, a room changed, a
    /// calendar read).
    static let requestPath = [
        "EventLoop.waitForEvents(timeout:)", "Server.serveUntilStopped()", "Server.finishTurn()",
        "Channel.handle(events:)", "Channel.readInput()", "Channel.takingLines.getter", "Channel.afterLines()",
        "Channel.send(_:)", "Channel.sendGathered()", "Channel.sendAtOnce(_:)", "Channel.flush()",
        "Channel.needsSweeping.getter", "Channel.readIfAffordable()", "LineFramer.feed(_:_:mayTakeAnother:)",
        "Session.take(_:from:)", "Session.answer(_:)", "Session.linesTaken(by:)",
        "ParsedLines.parsed(for:)", "Dispatcher.dispatch(_:from:)", "Responder.answer(_:now:counters:)",
        "TurnBudget.beginFromLatestReading(_:)", "TurnBudget.end(_:)", "TurnBudget.isSpent(_:)", "TurnBudget.resumeWaiting()",
        "GroupCommit.finishTurn()", "WatchHub.renderDue()", "WatchHub.deliver()",
    ]

    /// Each of `names` found in the release zaoan-server (by its readable name), with its
    /// disassembly; cancels the test when there is no release build or no demangler.
    static func disassembled(_ names: [String] = requestPath) throws -> (server: String, functions: [(name: String, code: String)]) {
        guard let release = Locations.releaseZaoan else {
            try Test.cancel("no release build at .build/release/zaoan; scripts/test builds it (swift build -c release --product zaoan-server --static-swift-stdlib)")
        }
        guard let demangler = Locations.tool("swift-demangle") ?? ["/opt/swift/usr/bin/swift-demangle"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            try Test.cancel("no swift-demangle (it comes with the Swift toolchain) on PATH")
        }
        let server = (release as NSString).deletingLastPathComponent + "/zaoan-server"
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let environment = Tool.baseEnvironment(home: scratch.path)

        // Every function symbol with its address and size, and its readable name.
        let nm = try Tool.run("/usr/bin/nm", ["-S", "--defined-only", server], environment: environment, timeout: 60, scratch: scratch)
        try #require(nm.status == 0, "nm \(server): \(nm)")
        var symbols: [(mangled: String, start: UInt64, size: UInt64)] = []
        for line in nm.output.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 4, fields[2] == "t" || fields[2] == "T", fields[3].hasPrefix("$s"),
                  let start = UInt64(fields[0], radix: 16), let size = UInt64(fields[1], radix: 16) else { continue }
            symbols.append((String(fields[3]), start, size))
        }
        let mangled = symbols.map(\.mangled).joined(separator: "\n") + "\n"
        let demangled = try Tool.run(demangler, ["--simplified", "--compact"], stdin: Data(mangled.utf8), environment: environment, timeout: 60, scratch: scratch)
        try #require(demangled.status == 0, "swift-demangle: \(demangled)")
        let readable = demangled.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(readable.count >= symbols.count, "swift-demangle gave \(readable.count) names for \(symbols.count) symbols")

        let wanted = Set(names)
        var functions: [(name: String, code: String)] = []
        for (index, symbol) in symbols.enumerated() where wanted.contains(readable[index]) {
            let objdump = try Tool.run("/usr/bin/objdump", [
                "-d", "--no-show-raw-insn",
                "--start-address=0x" + String(symbol.start, radix: 16),
                "--stop-address=0x" + String(symbol.start + symbol.size, radix: 16), server,
            ], environment: environment, timeout: 60, scratch: scratch)
            try #require(objdump.status == 0, "objdump \(readable[index]): \(objdump)")
            functions.append((readable[index], objdump.output))
        }
        // A function the compiler inlined everywhere has no symbol of its own: its code is in
        // its callers, which are listed too. Most must be there, or the list is stale.
        let found = Set(functions.map(\.name))
        try #require(found.count >= names.count * 2 / 3,
                     "only \(found.sorted()) of the request path's functions are in \(server): the names changed? (bench/callgrind.sh with KEEP= lists what a request runs)")
        return (server, functions)
    }

    /// The calls in `code` to the function named `callee` (as objdump names the target).
    static func calls(in code: String, to callee: String) -> Int {
        code.split(separator: "\n").filter { $0.contains("call") && $0.contains("<\(callee)>") }.count
    }

    @Test("no function a request runs through checks exclusive access at run time")
    func requestPathHasNoRuntimeChecks() throws {
        let (_, functions) = try Self.disassembled()
        let checking = functions.compactMap { function in
            let count = Self.calls(in: function.code, to: "swift_beginAccess")
            return count == 0 ? nil : "\(function.name) (\(count))"
        }
        #expect(checking.isEmpty, "these functions on a request's path check exclusive access at run time (swift_beginAccess): \(checking). A property changed in place across a call into the runtime loses the compiler's proof for every access to it; change it out of place (ZaoanServer/OutOfPlace.swift)")
    }

    /// glibc's read, send and epoll_wait are cancellation points: in a process with threads
    /// (the service's background workers) each switches to asynchronous cancellation and back
    /// around the system call, two atomic operations. The loop makes its calls through
    /// syscall(2) (CLinux.h, `zaoan_read`, `zaoan_send`, `zaoan_epoll_wait`).
    @Test("the loop reads, writes and waits through syscall(2), not glibc's cancellable wrappers")
    func requestPathSkipsCancellationPoints() throws {
        // With the write of an answer queued before it (a client that reads slowly).
        let (server, functions) = try Self.disassembled(Self.requestPath + ["OutputQueue.send(to:budget:)"])
        let wrappers = ["read", "send", "sendto", "recv", "epoll_wait", "epoll_pwait", "write"].map { $0 + "@plt" }
        let cancellable = functions.flatMap { function in
            wrappers.filter { Self.calls(in: function.code, to: $0) > 0 }.map { "\(function.name) calls \($0)" }
        }
        #expect(cancellable.isEmpty, "\(cancellable): use CLinux's zaoan_read, zaoan_send, zaoan_epoll_wait")
        let direct = functions.filter { Self.calls(in: $0.code, to: "syscall@plt") > 0 }.map(\.name)
        #expect(direct.count >= 2, "only \(direct) of the request path's functions in \(server) call syscall(2): is the list stale?")
    }
}
