import Foundation
import Testing
@testable import ZaoanCore
@testable import ZaoanTime

/// Writes TZif files (RFC 8536) for tests: a valid one by default, or with one field wrong.
struct TZifBuilder {
    var magic = "TZif"
    var version: UInt8 = UInt8(ascii: "2")
    var transitions: [Int64] = [0, 777_600]
    var indices: [UInt8] = [1, 0]
    /// (UT offset, isdst, abbreviation index)
    var types: [(Int32, UInt8, UInt8)] = [(3600, 0, 0), (7200, 1, 4)]
    var characters: [UInt8] = Array("CET\0CEST\0".utf8)
    var footer: [UInt8]? = Array("\nCET-1CEST,M3.5.0,M10.5.0/3\n".utf8)
    /// Replace a header count (0 isutcnt ... 5 charcnt) in both headers.
    var countOverride: [Int: UInt32] = [:]

    func bytes() -> [UInt8] {
        var out: [UInt8] = []
        func big(_ value: UInt64, _ size: Int) { for shift in stride(from: (size - 1) * 8, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) } }
        func block(timeSize: Int) {
            out += magic.utf8
            out.append(version)
            out += [UInt8](repeating: 0, count: 15)
            let counts: [UInt32] = [0, 0, 0, UInt32(transitions.count), UInt32(types.count), UInt32(characters.count)]
            for (index, count) in counts.enumerated() { big(UInt64(countOverride[index] ?? count), 4) }
            for time in transitions { big(UInt64(bitPattern: time), timeSize) }
            out += indices
            for type in types {
                big(UInt64(UInt32(bitPattern: type.0)), 4)
                out += [type.1, type.2]
            }
            out += characters
        }
        block(timeSize: 4)
        if version != 0 {
            block(timeSize: 8)
            if let footer { out += footer }
        }
        return out
    }
}

/// Malformed TZif bytes are refused, never trapped on, and never make the reader allocate
/// what a count claims.
@Suite struct ZoneInfoMalformedTests {
    private func parse(_ bytes: [UInt8]) -> Result<ZoneInfo, ZoneInfoError> {
        do throws(ZoneInfoError) { return .success(try ZoneInfo(tzif: bytes)) } catch { return .failure(error) }
    }

    @Test func theBuilderMakesAValidZone() throws {
        let zone = try parse(TZifBuilder().bytes()).get()
        #expect(zone.localTime(at: -1) == (3600, false, "CET"))
        #expect(zone.localTime(at: 0) == (7200, true, "CEST"))
        #expect(zone.localTime(at: 777_599) == (7200, true, "CEST"))
        #expect(zone.localTime(at: 777_600) == (3600, false, "CET"))  // the last transition: the footer from here
        #expect(zone.localTime(at: 1_782_900_000).abbreviation == "CEST")  // July 2026, from the footer
        var version1 = TZifBuilder()
        version1.version = 0
        #expect(try parse(version1.bytes()).get().localTime(at: 1_782_900_000).abbreviation == "CET")  // no footer
    }

    @Test func everyTruncationOfARealFileIsRefused() throws {
        let bytes = try ZoneInfoStore.readZoneFile("/usr/share/zoneinfo/Europe/Berlin")
        var accepted: [Int] = []
        for length in 0..<bytes.count {
            if case .success = parse(Array(bytes[0..<length])) { accepted.append(length) }
        }
        let count = accepted.count
        #expect(count == 0, "prefixes accepted: \(accepted.prefix(10))")
        #expect(throws: Never.self) { try ZoneInfo(tzif: bytes) }
    }

    /// One way to get a field wrong.
    struct Corruption: Sendable, CustomStringConvertible {
        let description: String
        let change: @Sendable (inout TZifBuilder) -> Void
        init(_ description: String, _ change: @escaping @Sendable (inout TZifBuilder) -> Void) {
            self.description = description
            self.change = change
        }
    }

    static let corruptions: [Corruption] = [
        Corruption("bad magic") { $0.magic = "TZiF" },
        Corruption("unknown version") { $0.version = UInt8(ascii: "A") },
        Corruption("4 billion transitions") { $0.countOverride[3] = .max },
        Corruption("4 billion types") { $0.countOverride[4] = .max },
        Corruption("4 billion characters") { $0.countOverride[5] = .max },
        Corruption("4 billion leap seconds") { $0.countOverride[2] = .max },
        Corruption("no types") { $0.countOverride[4] = 0 },
        Corruption("no characters") { $0.countOverride[5] = 0 },
        Corruption("indicator counts not matching the types") { $0.countOverride[0] = 1 },
        Corruption("a type index past the types") { $0.indices = [1, 2] },
        Corruption("an abbreviation index past the characters") { $0.types[1].2 = 9 },
        Corruption("an abbreviation without its NUL") { $0.characters = Array("CET\0CEST".utf8) },
        Corruption("an abbreviation with a control character") { $0.characters = Array("CET\0CE\u{1}T\0".utf8) },
        Corruption("an offset of -2^31") { $0.types[0].0 = .min },
        Corruption("an offset of 100 hours") { $0.types[0].0 = 360_000 },
        Corruption("a DST flag of 2") { $0.types[1].1 = 2 },
        Corruption("transitions out of order") { $0.transitions = [777_600, 0] },
        Corruption("equal transitions") { $0.transitions = [0, 0] },
        Corruption("no footer") { $0.footer = nil },
        Corruption("a footer without its last newline") { $0.footer = Array("\nCET-1".utf8) },
        Corruption("bytes after the footer") { $0.footer = Array("\nCET-1\nX".utf8) },
        Corruption("a malformed footer rule") { $0.footer = Array("\nCET-1CEST,M13.5.0,M10.5.0\n".utf8) },
        Corruption("a footer that is not ASCII") { $0.footer = Array("\nCET-1\u{E9}\n".utf8) },
    ]

    @Test("wrong fields are refused", arguments: corruptions)
    func refused(_ corruption: Corruption) {
        var builder = TZifBuilder()
        corruption.change(&builder)
        guard case .failure = parse(builder.bytes()) else {
            Issue.record("\(corruption): accepted")
            return
        }
    }

    /// Thousands of single-byte and multi-byte corruptions of real files: each is either
    /// refused or read into a zone that answers without trapping.
    @Test(arguments: ["Europe/Berlin", "Australia/Lord_Howe", "Asia/Kathmandu"])
    func randomCorruptionsNeverTrap(_ name: String) throws {
        let original = try ZoneInfoStore.readZoneFile("/usr/share/zoneinfo/" + name)
        var generator = SplitMix(seed: 0x5A0A_2026)
        var refused = 0
        for round in 0..<3000 {
            var bytes = original
            for _ in 0..<(1 + round % 4) {
                let index = Int(generator.next() % UInt64(bytes.count))
                bytes[index] = UInt8(truncatingIfNeeded: generator.next())
            }
            switch parse(bytes) {
            case .failure: refused += 1
            case .success(let zone):
                for instant in [Int.min, -4_000_000_000, 0, 1_790_000_000, 4_102_444_800, Int.max] {
                    _ = zone.localTime(at: instant)
                }
                _ = zone.instants(atLocal: 1_774_749_600)
                _ = zone.instants(atLocal: .max)
            }
        }
        #expect(refused > 0)
    }

    @Test func oversizedBytesAreRefusedBeforeReading() {
        var bytes = TZifBuilder().bytes()
        bytes += [UInt8](repeating: 0, count: ZoneInfo.maxFileSize)
        guard case .failure(let error) = parse(bytes) else {
            Issue.record("accepted")
            return
        }
        #expect(error.description.contains("larger than"))
    }
}

/// A small deterministic generator (SplitMix64), so failures reproduce (the zone readers'
/// corruptions, `event add`'s UIDs).
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
