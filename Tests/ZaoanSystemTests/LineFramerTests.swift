import Testing
@testable import ZaoanSystem

/// What a framer delivered, copied out of the borrowed buffer.
enum Framed: Equatable, CustomStringConvertible {
    case line([UInt8])
    case tooLong

    static func text(_ string: String) -> Framed { .line(Array(string.utf8)) }

    var description: String {
        switch self {
        case .tooLong: return "tooLong"
        case .line(let bytes) where bytes.count > 40: return "line(\(bytes.count) bytes)"
        case .line(let bytes): return "line(\(String(decoding: bytes, as: UTF8.self).debugDescription))"
        }
    }
}

/// Drives a `LineFramer` and records what it delivers.
struct FramerHarness {
    var framer = LineFramer()
    var frames: [Framed] = []
    /// Answer false (stop) after this many frames.
    var stopAfter: Int? = nil

    mutating func feed(_ chunk: [UInt8]) {
        var delivered = frames
        let stop = stopAfter
        chunk.withUnsafeBytes { raw in
            framer.feed(raw) { frame in
                delivered.append(Framed(frame))
                return stop.map { delivered.count < $0 } ?? true
            }
        }
        frames = delivered
    }

    mutating func feed(_ text: String) { feed(Array(text.utf8)) }

    mutating func resume() {
        var delivered = frames
        let stop = stopAfter
        framer.resume { frame in
            delivered.append(Framed(frame))
            return stop.map { delivered.count < $0 } ?? true
        }
        frames = delivered
    }

    mutating func finish() {
        var delivered = frames
        framer.finish { frame in
            delivered.append(Framed(frame))
            return true
        }
        frames = delivered
    }

    /// Feeds each chunk in turn, then ends the input, stopping at `.tooLong` the way a
    /// connection does (it answers and closes).
    static func run(_ chunks: [[UInt8]], finish: Bool = true) -> [Framed] {
        var harness = FramerHarness()
        for chunk in chunks {
            harness.feed(chunk)
            if harness.frames.contains(.tooLong) { return harness.frames }
        }
        if finish { harness.finish() }
        return harness.frames
    }
}

extension Framed {
    init(_ frame: LineFramer.Frame) {
        switch frame {
        case .line(let bytes): self = .line(Array(bytes))
        case .tooLong: self = .tooLong
        }
    }
}

@Suite struct LineFramerTests {
    static let limit = LineFramer.maxLineLength
    static func letters(_ count: Int) -> [UInt8] { Array(repeating: UInt8(ascii: "a"), count: count) }
    static let lf: [UInt8] = [0x0A]
    static let crlf: [UInt8] = [0x0D, 0x0A]

    @Test func limitIs4096() {
        #expect(LineFramer.maxLineLength == 4096)
    }

    /// Lengths around the limit, ended by LF or CRLF, in one chunk or one byte per feed.
    @Test(arguments: [
        (4095, false, true), (4096, false, true), (4097, false, false), (5000, false, false),
        (4095, true, true), (4096, true, true), (4097, true, false), (5000, true, false),
    ], [false, true])
    func lengthLimit(_ row: (length: Int, crlf: Bool, accepted: Bool), bytewise: Bool) {
        let (length, crlf, accepted) = row
        let input = Self.letters(length) + (crlf ? Self.crlf : Self.lf)
        let chunks = bytewise ? input.map { [$0] } : [input]
        let frames = FramerHarness.run(chunks)
        #expect(frames == (accepted ? [.line(Self.letters(length))] : [.tooLong]))
    }

    /// An overlong line is reported as soon as it is known to be too long, not when its LF
    /// finally comes, so a client cannot make the service buffer without bound.
    @Test(arguments: [false, true])
    func overlongLineIsReportedBeforeItsEnd(bytewise: Bool) {
        let input = Self.letters(Self.limit + 1)
        var harness = FramerHarness()
        if bytewise { input.forEach { harness.feed([$0]) } } else { harness.feed(input) }
        #expect(harness.frames == [.tooLong])
    }

    /// 4096 bytes and a CR may still be a valid line waiting for its LF.
    @Test func fullLineAndCRWaitForTheLF() {
        var harness = FramerHarness()
        harness.feed(Self.letters(Self.limit) + [0x0D])
        #expect(harness.frames == [])
        #expect(harness.framer.hasBufferedInput)
        harness.feed(Self.lf)
        #expect(harness.frames == [.line(Self.letters(Self.limit))])
        #expect(!harness.framer.hasBufferedInput)
    }

    @Test func fullLineAndCRThenMoreIsTooLong() {
        var harness = FramerHarness()
        harness.feed(Self.letters(Self.limit) + [0x0D])
        harness.feed(Array("x\n".utf8))
        #expect(harness.frames == [.tooLong])
    }

    /// A line held partly in `pending`, finished by a later chunk, at and past the limit.
    @Test(arguments: [(4000, 96, true), (4000, 97, false), (1, 4095, true), (1, 4096, false), (4096, 0, true)])
    func lineCompletedByALaterChunk(first: Int, second: Int, accepted: Bool) {
        let frames = FramerHarness.run([Self.letters(first), Self.letters(second) + Self.crlf])
        #expect(frames == (accepted ? [.line(Self.letters(first + second))] : [.tooLong]))
    }

    @Test func lineSplitAcrossManyFeeds() {
        let frames = FramerHarness.run([
            Array("gr".utf8), Array("ee".utf8), Array("ting ".utf8),
            [0xE4], [0xB8], [0x9C],        // 东, one byte at a time
            Array("京".utf8), [], Self.lf,
        ], finish: false)
        #expect(frames == [.text("greeting 东京")])
    }

    @Test func crlfSplitBetweenFeeds() {
        var harness = FramerHarness()
        harness.feed("ping\r")
        #expect(harness.frames == [])
        harness.feed("\n")
        #expect(harness.frames == [.text("ping")])
        harness.feed("time\r")
        harness.feed("\ngreeting\r")
        harness.feed("\n")
        #expect(harness.frames == [.text("ping"), .text("time"), .text("greeting")])
    }

    /// Every way of cutting the same input into two reads gives the same lines.
    @Test(arguments: 0...Array("greeting 东京\r\nping\n\ntime %H:%M\r\n".utf8).count)
    func everySplitPointGivesTheSameLines(cut: Int) {
        let input = Array("greeting 东京\r\nping\n\ntime %H:%M\r\n".utf8)
        let frames = FramerHarness.run([Array(input[..<cut]), Array(input[cut...])])
        #expect(frames == [.text("greeting 东京"), .text("ping"), .text(""), .text("time %H:%M")])
    }

    @Test func multipleLinesInOneChunk() {
        let frames = FramerHarness.run([Array("ping\r\ntime\n\nversion\n\r\n".utf8)], finish: false)
        #expect(frames == [.text("ping"), .text("time"), .text(""), .text("version"), .text("")])
    }

    @Test(arguments: [
        (["ping\ntime"], ["ping", "time"]),
        (["ping"], ["ping"]),
        (["pi", "ng"], ["ping"]),
        (["ping\r"], ["ping"]),
        (["ping\n"], ["ping"]),
        (["ping\n", ""], ["ping"]),
        ([""], []),
        ([String](), []),
    ])
    func unterminatedLastLineIsDeliveredByFinish(chunks: [String], lines: [String]) {
        let frames = FramerHarness.run(chunks.map { Array($0.utf8) })
        #expect(frames == lines.map(Framed.text))
    }

    @Test func unterminatedLineOfExactlyTheLimitIsDeliveredByFinish() {
        #expect(FramerHarness.run([Self.letters(Self.limit)]) == [.line(Self.letters(Self.limit))])
        #expect(FramerHarness.run([Self.letters(Self.limit) + [0x0D]]) == [.line(Self.letters(Self.limit))])
    }

    @Test func finishDeliversNothingTwice() {
        var harness = FramerHarness()
        harness.feed("ping")
        harness.finish()
        harness.finish()
        #expect(harness.frames == [.text("ping")])
    }

    @Test func onlyOneTrailingCRIsDropped() {
        let frames = FramerHarness.run([Array("a\rb\r\r\n\r\n".utf8)], finish: false)
        #expect(frames == [.text("a\rb\r"), .text("")])
    }

    @Test func bufferedInputTracksUnfinishedBytes() {
        var harness = FramerHarness()
        #expect(!harness.framer.hasBufferedInput)
        harness.feed("ping\npi")
        #expect(harness.framer.hasBufferedInput)
        harness.feed("ng\n")
        #expect(!harness.framer.hasBufferedInput)
        #expect(harness.frames == [.text("ping"), .text("ping")])
    }

    /// The handler stops (backpressure): the rest of the chunk is kept, and `resume`
    /// delivers it, in order, once the handler takes lines again.
    @Test func stoppingKeepsTheRestForResume() {
        var harness = FramerHarness(stopAfter: 1)
        harness.feed("quit\nping\ntime")
        #expect(harness.frames == [.text("quit")])
        #expect(harness.framer.hasBufferedInput)
        harness.stopAfter = nil
        harness.resume()
        #expect(harness.frames == [.text("quit"), .text("ping")])
        harness.feed("\n")
        #expect(harness.frames == [.text("quit"), .text("ping"), .text("time")])
        #expect(!harness.framer.hasBufferedInput)
    }

    @Test func stoppingOnALineFinishedFromPendingKeepsTheRest() {
        var harness = FramerHarness(stopAfter: 1)
        harness.feed("qu")
        harness.feed("it\nping\n")
        #expect(harness.frames == [.text("quit")])
        #expect(harness.framer.hasBufferedInput)
        harness.stopAfter = nil
        harness.finish()
        #expect(harness.frames == [.text("quit"), .text("ping")])
        #expect(!harness.framer.hasBufferedInput)
    }

    /// While stopped, more input is only kept; no line is delivered out of order.
    @Test func feedWhileStoppedKeepsOrder() {
        var harness = FramerHarness(stopAfter: 1)
        harness.feed("a\nb\n")
        harness.feed("c\n")  // the handler is asked once more, says stop again
        #expect(harness.frames == [.text("a"), .text("b")])
        harness.stopAfter = nil
        harness.resume()
        #expect(harness.frames == [.text("a"), .text("b"), .text("c")])
    }

    @Test func nothingAfterTooLongInTheSameChunk() {
        let frames = FramerHarness.run([Self.letters(Self.limit + 1) + Self.lf + Array("ping\n".utf8)], finish: false)
        #expect(frames == [.tooLong])
    }

    /// `feed`'s documentation says nothing more is delivered after `.tooLong`. The framer
    /// keeps no such state: once the overlong part is dropped, the rest of the same line
    /// comes out as a request of its own. (Connection closes on `.tooLong`, so the service
    /// never feeds it again today.)
    @Test func nothingAfterTooLongInLaterFeeds() {
        var harness = FramerHarness()
        harness.feed(Self.letters(Self.limit + 1))
        #expect(harness.frames == [.tooLong])
        harness.feed(Array(" ping\n".utf8))
        harness.finish()
        #expect(harness.frames == [.tooLong])
    }

    @Test func linesBeforeAnOverlongLineAreDelivered() {
        let frames = FramerHarness.run([Array("ping\n".utf8) + Self.letters(Self.limit + 10)], finish: false)
        #expect(frames == [.text("ping"), .tooLong])
    }

    /// `mayTakeAnother` is asked before each further line of one call, never before the
    /// first: a read of one line asks nothing (the service's turn budget reads the clock
    /// there). Saying no keeps the line untaken, for `resume`, in order.
    @Test func mayTakeAnotherIsAskedBeforeFurtherLinesOnly() {
        var framer = LineFramer()
        var frames: [Framed] = []
        var asked = 0
        func feed(_ text: String, allow: Bool) {
            Array(text.utf8).withUnsafeBytes { raw in
                framer.feed(raw, { frames.append(Framed($0)); return true }, mayTakeAnother: { asked += 1; return allow })
            }
        }
        feed("ping\n", allow: false)
        #expect(frames == [.text("ping")] && asked == 0)
        feed("a\nb\nc", allow: false)
        #expect(frames == [.text("ping"), .text("a")] && asked == 1)
        #expect(framer.hasCompleteLine)
        var allowed = 0
        framer.resume({ frames.append(Framed($0)); return true }, mayTakeAnother: { allowed += 1; return true })
        #expect(frames == [.text("ping"), .text("a"), .text("b")] && allowed == 0)
        // At the end of input, an unterminated line alone is not a further line: not asked.
        framer.finish({ frames.append(Framed($0)); return true }, mayTakeAnother: { allowed += 1; return false })
        #expect(frames == [.text("ping"), .text("a"), .text("b"), .text("c")] && allowed == 0)
        // After lines taken in the same call it is, and waits when the answer is no.
        frames = []
        feed("x\ny\nz", allow: false)
        framer.finish({ frames.append(Framed($0)); return true }, mayTakeAnother: { allowed += 1; return false })
        #expect(frames == [.text("x"), .text("y")] && allowed == 1)
        framer.finish({ frames.append(Framed($0)); return true }, mayTakeAnother: { false })
        #expect(frames == [.text("x"), .text("y"), .text("z")])
    }
}
