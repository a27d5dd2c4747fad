import Glibc

/// Requests already parsed, by their line: bars, prompts and benchmarks send the same few
/// lines again and again, and parsing one (`RequestParser.parse`: words, quotes, the table,
/// the arguments' reader) costs more than answering it from the render cache, and a hit
/// here costs a small part of that (docs/benchmarks.md).
///
/// Parsing depends on the line's bytes alone, so a hit is exactly what parsing again would
/// give. A fixed table of `slots` entries, each chosen by a hash of the line (FNV-1a) and
/// confirmed by comparing the bytes: a hit allocates nothing, a miss replaces what the slot
/// held. Bounded whatever clients send: lines longer than `longestLine` are parsed every
/// time and never kept, so at most `slots × longestLine` bytes of lines are held, and a
/// client sending a new line each time only makes every look-up a miss. Lines that fail to
/// parse (or are blank) are not kept: their error is worked out again.
///
/// A class, which the dispatcher keeps as a constant: a look-up then holds no property while
/// it parses, and Swift need not check the dispatcher's property for exclusive access at
/// run time on every request.
public final class ParsedLines {
    public static let slots = 64
    public static let longestLine = 160

    /// Each slot's box holds the line it was parsed from and that line's hash: a look-up
    /// reads one reference, which is the one it returns.
    private var entries: [ParsedRequest?] = Array(repeating: nil, count: slots)
    /// Look-ups answered from the table, and lines parsed. Kept private behind getters:
    /// a stored property other modules may read is checked for exclusive access at run time.
    public var hits: Int { hitCount }
    public var misses: Int { missCount }
    private var hitCount = 0
    private var missCount = 0

    public init() {}

    /// The request `line` says, as `RequestParser.parse` reads it.
    public func request(for line: UnsafeRawBufferPointer) throws(ProtocolError) -> Request? {
        try parsed(for: line)?.request
    }

    /// The same, in the box it is kept in: handing the box on is one retain, where an
    /// optional `Request` went through the enum's generic copy and destroy witnesses.
    public func parsed(for line: UnsafeRawBufferPointer) throws(ProtocolError) -> ParsedRequest? {
        guard line.count <= Self.longestLine else { return try RequestParser.parse(line).map { ParsedRequest($0) } }
        let hash = Self.hash(line)
        let slot = Int(truncatingIfNeeded: hash % UInt64(Self.slots))
        if let kept = entries[slot], kept.lineHash == hash, kept.hasLine(line) {
            hitCount &+= 1
            return kept
        }
        missCount &+= 1
        guard let request = try RequestParser.parse(line) else { return nil }
        let parsed = ParsedRequest(request, line: Array(line), hash: hash)
        // Stored out of place (taken out, changed, put back), as the server's
        // `changeOutOfPlace` does: held across the array's own calls into the runtime,
        // `entries` would be checked for exclusive access on every look-up.
        var kept = entries
        entries = []
        kept[slot] = parsed
        entries = kept
        return parsed
    }

    /// How many lines are kept now.
    public var count: Int { entries.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }

    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }

}

/// A parsed request as `ParsedLines` keeps it: shared, never changed. The same line gives
/// the same box while it stays in its slot, so whoever answers it can know it again by
/// identity (`===`) without comparing requests.
public final class ParsedRequest: Sendable {
    public let request: Request
    /// `request.kind`, worked out once.
    public let kind: RequestKind
    /// The line it was parsed from and its hash, when `ParsedLines` keeps it (else empty and 0).
    let line: [UInt8]
    let lineHash: UInt64

    /// Whether it was parsed from `bytes`.
    func hasLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard line.count == bytes.count else { return false }
        return line.withUnsafeBytes { kept in
            guard let a = kept.baseAddress, let b = bytes.baseAddress else { return true }  // both empty
            return memcmp(a, b, bytes.count) == 0
        }
    }

    public convenience init(_ request: Request) {
        self.init(request, line: [], hash: 0)
    }

    init(_ request: Request, line: [UInt8], hash: UInt64) {
        self.request = request
        kind = request.kind
        self.line = line
        lineHash = hash
    }
}
