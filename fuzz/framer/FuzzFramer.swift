// libFuzzer target: the line framer under random chunking and random backpressure, checked
// against a model: the lines it delivers, in order, are the input's LF-separated lines (a CR
// before the LF dropped, the unterminated rest delivered by `finish`) up to the first one
// longer than 4096 bytes, which is reported as too long and ends the stream.
// Without -DFUZZING this builds a replayer: `fuzz-framer FILE...`.
import Foundation
import FuzzDriver
import ZaoanSystem

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFramer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    // The first two bytes steer the chunk sizes and when the consumer stops taking lines.
    var steering = UInt32(data[0]) << 8 | UInt32(data[1])
    let input = Array(UnsafeBufferPointer(start: data + 2, count: size - 2))
    func next(_ bound: Int) -> Int {
        steering = steering &* 1_103_515_245 &+ 12_345
        return Int((steering >> 8) % UInt32(bound))
    }
    var framer = LineFramer()
    var delivered: [[UInt8]?] = []  // nil: too long
    var stopAtRandom = true
    func take(_ frame: LineFramer.Frame) -> Bool {
        switch frame {
        case .line(let bytes):
            precondition(bytes.count <= LineFramer.maxLineLength, "a line longer than the limit")
            delivered.append(Array(bytes))
        case .tooLong:
            precondition(delivered.last.map { $0 != nil } ?? true, "too long twice")
            delivered.append(nil)
        }
        return !stopAtRandom || next(4) != 0
    }
    var offset = 0
    while offset < input.count {
        let length = min(input.count - offset, 1 + next(9_000))
        input[offset..<(offset + length)].withUnsafeBytes { chunk in framer.feed(chunk) { take($0) } }
        offset += length
        while next(3) == 0 { framer.resume { take($0) } }
    }
    stopAtRandom = false
    framer.finish { take($0) }

    var expected: [[UInt8]?] = []
    var lines = input.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
    let unterminated = lines.removeLast()
    var overflowed = false
    for var line in lines {
        if line.last == 0x0D { line.removeLast() }
        if line.count > LineFramer.maxLineLength {
            expected.append(nil)
            overflowed = true
            break
        }
        expected.append(line)
    }
    if !overflowed && !unterminated.isEmpty {
        var line = unterminated
        if line.last == 0x0D { line.removeLast() }
        expected.append(line.count > LineFramer.maxLineLength ? nil : line)
    }
    precondition(delivered.count == expected.count, "\(delivered.count) lines delivered, the input holds \(expected.count)")
    precondition(delivered.elementsEqual(expected, by: { $0 == $1 }), "the framer's lines differ from the input's")
    return 0
}

#if FUZZING
@_cdecl("fuzz_framer_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzzFramer)
}
#else
@main
struct Replay {
    static func main() { FuzzDriver.replay(fuzzFramer) }
}
#endif
