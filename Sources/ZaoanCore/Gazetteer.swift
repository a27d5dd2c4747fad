import Glibc
/// A city of the gazetteer (GeoNames' cities15000), as one lookup found it.
public struct GazetteerCity: Sendable, Equatable {
    /// GeoNames' main name (`Munich`).
    public let name: String
    /// GeoNames' spelling of the name that matched (`München` for `münchen`).
    public let spelling: String
    /// ISO 3166 country code (`DE`).
    public let country: String
    public let population: Int
    /// The IANA zone (`Europe/Berlin`).
    public let zone: String
    /// CLDR's names, by language, of a city that is its zone's exemplar city (Shanghai is
    /// Asia/Shanghai's: 上海, 상하이); nil for every other city.
    public let cldr: [Language: String]?

    /// What a greeting shows: CLDR's name in `language` for an exemplar city, else the name
    /// as typed, in GeoNames' spelling.
    public func shownName(in language: Language) -> String {
        guard let cldr else { return spelling }
        return cldr[language] ?? name
    }
}

/// What a lookup in the gazetteer found.
public enum GazetteerAnswer: Sendable, Equatable {
    /// The first `limit` cities of that name, most populous first, and how many there are
    /// (none: the name is not in it).
    case found([GazetteerCity], total: Int)
    /// The gazetteer's file could not be used, and why.
    case unavailable(String)
}

/// Cities by name for names neither built in nor in the config's `cities`: the service's
/// is `GazetteerFile` (ZaoanServer), which maps the shipped file on first use.
public protocol CityGazetteer: Sendable {
    /// The cities whose name, normalized (`CityName.key`), is `name`'s.
    func cities(named name: String, limit: Int) -> GazetteerAnswer
}

/// The gazetteer's file as `scripts/generate/cities.py` writes it, searched in place: a
/// header with the sections' offsets, the city table by id, and the name index sorted
/// bytewise, each a line of tab-separated fields (docs/configuration.md, "Cities").
///
/// Nothing in the bytes is trusted: every offset is bounds-checked, every line must end
/// within its section, and a line longer than `maxLineBytes` or a field that does not
/// parse makes the lookup fail with `Damage`, never a trap. Each lookup reads O(log n)
/// lines, so only those pages of a mapped file are ever touched.
public struct GazetteerData {
    public struct Damage: Error, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// No line of the file is this long (the longest is 429 bytes).
    static let maxLineBytes = 4096
    static let magic = Array("zaoan-cities\t1\tcities=".utf8)
    static let headerBytes = magic.count + 10 + "\tnames=".utf8.count + 10 + "\tend=".utf8.count + 10 + 1

    let bytes: UnsafeRawBufferPointer
    let citiesStart: Int
    let namesStart: Int

    /// Checks the header: the format's name and version, and offsets that fit the file.
    public init(_ bytes: UnsafeRawBufferPointer) throws(Damage) {
        self.bytes = bytes
        let header = Self.headerBytes
        guard bytes.count >= header, bytes.starts(with: Self.magic) else {
            throw Damage("not a zaoan cities file (version 1): its first line is not \"zaoan-cities<TAB>1<TAB>cities=...\"")
        }
        func number(at offset: Int, after label: String) throws(Damage) -> Int {
            let start = offset + label.utf8.count
            guard bytes[offset..<start].elementsEqual(label.utf8), let value = Self.decimal(bytes, start, start + 10) else {
                throw Damage("its first line is damaged")
            }
            return value
        }
        let cities = try number(at: Self.magic.count - "cities=".utf8.count, after: "cities=")
        let names = try number(at: Self.magic.count + 10, after: "\tnames=")
        let end = try number(at: Self.magic.count + 10 + 7 + 10, after: "\tend=")
        guard bytes[header - 1] == 0x0A else { throw Damage("its first line is damaged") }
        guard end == bytes.count else {
            throw Damage(bytes.count < end ? "truncated: \(bytes.count) bytes of \(end)" : "\(bytes.count) bytes where its header says \(end)")
        }
        guard header <= cities, cities <= names, names <= end, bytes[cities - 1] == 0x0A, bytes[names - 1] == 0x0A,
              end == names || bytes[end - 1] == 0x0A else {
            throw Damage("its sections' offsets (\(cities), \(names), \(end)) do not fit the file")
        }
        citiesStart = cities
        namesStart = names
    }

    /// The cities under `name` (normalized), most populous first: at most `limit` of them,
    /// and how many in all (counted up to 10,000).
    public func cities(named name: String, limit: Int) throws(Damage) -> (cities: [GazetteerCity], total: Int) {
        let key = Array(CityName.key(name).utf8)
        guard !key.isEmpty, key.count <= CityName.maxKeyBytes else { return ([], 0) }
        var at = try lowerBound(key)
        var found: [GazetteerCity] = []
        var total = 0
        while at < bytes.count, total < 10_000 {
            let end = try lineEnd(from: at, before: bytes.count)
            let fields = split(at, end)
            guard fields.count == 3 else { throw Damage("a line of the name index does not have 3 fields") }
            guard compare(fields[0], key) == 0 else { break }
            total += 1
            if found.count < limit {
                guard let id = Self.decimal(bytes, fields[1].lowerBound, fields[1].upperBound) else { throw Damage("a city number is not a number") }
                let spelling = fields[2].isEmpty ? nil : text(fields[2]) == "=" ? String(decoding: key, as: UTF8.self) : text(fields[2])
                found.append(try city(id: id, spelling: spelling))
            }
            at = end + 1
        }
        return (found, total)
    }

    /// The first line of the name index whose key is not below `key` (or the end).
    private func lowerBound(_ key: [UInt8]) throws(Damage) -> Int {
        var low = namesStart, high = bytes.count
        while low < high {
            let start = try lineStart(at: (low + high) / 2, notBefore: low)
            let end = try lineEnd(from: start, before: high)
            if compare(field(start, end), key) < 0 { low = end + 1 } else { high = start }
        }
        return low
    }

    /// The city with geoname id `id`: a binary search of the city table.
    private func city(id: Int, spelling: String?) throws(Damage) -> GazetteerCity {
        var low = citiesStart, high = namesStart
        while low < high {
            let start = try lineStart(at: (low + high) / 2, notBefore: low)
            let end = try lineEnd(from: start, before: high)
            let fields = split(start, end)
            guard fields.count == 6, let found = Self.decimal(bytes, fields[0].lowerBound, fields[0].upperBound),
                  let population = Self.decimal(bytes, fields[3].lowerBound, fields[3].upperBound) else {
                throw Damage("a line of the city table is damaged")
            }
            if found == id {
                let name = text(fields[1])
                return GazetteerCity(name: name, spelling: spelling ?? name, country: text(fields[2]), population: population,
                                     zone: text(fields[4]), cldr: cldrNames(fields[5]))
            }
            if found < id { low = end + 1 } else { high = start }
        }
        throw Damage("the name index names city \(id), which the city table lacks")
    }

    /// `*` then `lang=name` pairs separated by `|`: an exemplar city's names where they
    /// differ from its main name; empty for any other city.
    private func cldrNames(_ range: Range<Int>) -> [Language: String]? {
        guard !range.isEmpty, bytes[range.lowerBound] == UInt8(ascii: "*") else { return nil }
        var names: [Language: String] = [:]
        for pair in text(range.lowerBound + 1..<range.upperBound).split(separator: "|") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let language = Language(rawValue: String(parts[0])) { names[language] = String(parts[1]) }
        }
        return names
    }

    /// The start of the line holding `offset`, no earlier than `floor` (a line start).
    private func lineStart(at offset: Int, notBefore floor: Int) throws(Damage) -> Int {
        var at = offset
        while at > floor, bytes[at - 1] != 0x0A {
            at -= 1
            guard offset - at <= Self.maxLineBytes else { throw Damage("a line is longer than \(Self.maxLineBytes) bytes") }
        }
        return at
    }

    /// The offset of the newline ending the line at `start`, which must come before `limit`.
    private func lineEnd(from start: Int, before limit: Int) throws(Damage) -> Int {
        var at = start
        while at < limit, bytes[at] != 0x0A {
            at += 1
            guard at - start <= Self.maxLineBytes else { throw Damage("a line is longer than \(Self.maxLineBytes) bytes") }
        }
        guard at < limit else { throw Damage("a line runs past the end of its section") }
        return at
    }

    private func field(_ start: Int, _ end: Int) -> Range<Int> {
        var at = start
        while at < end, bytes[at] != 0x09 { at += 1 }
        return start..<at
    }

    private func split(_ start: Int, _ end: Int) -> [Range<Int>] {
        var fields: [Range<Int>] = []
        var from = start
        for at in start..<end where bytes[at] == 0x09 {
            fields.append(from..<at)
            from = at + 1
        }
        fields.append(from..<end)
        return fields
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Bytewise, as Python sorts `bytes`: negative, zero or positive.
    private func compare(_ range: Range<Int>, _ key: [UInt8]) -> Int {
        let common = min(range.count, key.count)
        let order = key.withUnsafeBytes { memcmp(bytes.baseAddress! + range.lowerBound, $0.baseAddress!, common) }
        return order != 0 ? Int(order) : range.count - key.count
    }

    /// An unsigned decimal of 1 to 18 digits in `bytes[start..<end]`, or nil.
    static func decimal(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Int? {
        guard start < end, end - start <= 18, end <= bytes.count else { return nil }
        var value = 0
        for at in start..<end {
            let digit = bytes[at] &- 0x30
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
        }
        return value
    }
}
