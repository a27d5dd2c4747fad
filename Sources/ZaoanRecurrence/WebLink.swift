import ZaoanText

/// An http(s) link as a calendar's text holds one: found in free text, unwrapped from the
/// redirects mail and calendar services put around links, and held to the rule a link must
/// pass to be shown or opened (`CalendarText.url`: at most 2,048 bytes, nothing `LinkText`
/// refuses). Pure and bounded: it looks at no more than `scanBytes` of a text and
/// `linksPerText` links in it, and never traps on any input.
public enum WebLink {
    /// Bytes of one text searched for links: an invitation's text puts its link near the
    /// top, and a 1 MiB description costs no more than this.
    public static let scanBytes = 65_536
    /// Links looked at in one text.
    public static let linksPerText = 256
    /// Redirects taken off one link (SafeLinks around Google's redirect is two).
    static let unwrapDepth = 3

    /// The http(s) links of `text`, in order, each unwrapped and checked; links that fail
    /// are left out. A link ends at a space or control, at `<`, `>`, `"`, `'` or a backtick,
    /// at punctuation outside ASCII (`。`, `，`, `」`) or at a scalar a link may not hold
    /// that looks like a break (a no-break space); trailing `.`, `,`, `;`, `:`, `!`, `?`, `*`
    /// and unbalanced closing brackets are the sentence's, not the link's. Any other scalar
    /// is the link's, so a link with a format character (U+202E) is refused whole rather
    /// than cut short into another link.
    public static func links(in text: String) -> [String] {
        var found: [String] = []
        var scalars = Array(CalendarText.prefix(text, maxBytes: scanBytes).unicodeScalars)
        var index = 0
        var looked = 0
        while index < scalars.count, looked < linksPerText {
            guard let length = schemeLength(scalars, at: index) else {
                index += 1
                continue
            }
            var end = index + length
            while end < scalars.count, !endsLink(scalars[end]) { end += 1 }
            looked += 1
            // A link longer than a URL may be is refused whole, without a look at its text.
            if end - index <= CalendarLimits.urlBytes, let link = checked(String(String.UnicodeScalarView(trimTrailing(scalars[index..<end])))) {
                found.append(link)
            }
            index = max(end, index + 1)
        }
        scalars.removeAll()
        return found
    }

    /// `raw` as a link to open, unwrapped; nil unless it is a whole http(s) link that passes
    /// `CalendarText.url` with a host, before and after unwrapping.
    public static func checked(_ raw: String) -> String? {
        guard var link = CalendarText.url(raw), isWeb(link), host(of: link) != nil else { return nil }
        for _ in 0..<unwrapDepth {
            switch unwrapped(link) {
            case .none: return link
            case .some(nil): return nil  // a redirect to nothing that can be read
            case .some(let inner?):
                guard let next = CalendarText.url(inner), isWeb(next), host(of: next) != nil else { return nil }
                link = next
            }
        }
        return unwrapped(link) == nil ? link : nil
    }

    /// Whether `link` starts with `http://` or `https://` (in any case).
    public static func isWeb(_ link: String) -> Bool {
        let scalars = Array(link.unicodeScalars.prefix(8))
        return schemeLength(scalars, at: 0) != nil
    }

    /// The host of an http(s) link, lowercased, without user, port or trailing dot; nil when
    /// it has none or it is not ASCII (no provider's is).
    public static func host(of link: String) -> String? {
        let bytes = Array(link.utf8)
        guard let start = bytes.firstIndex(of: UInt8(ascii: "/")).map({ $0 + 2 }), start <= bytes.count else { return nil }
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: "?"), bytes[end] != UInt8(ascii: "#") { end += 1 }
        var authority = bytes[start..<end]
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) { authority = authority[(at + 1)...] }
        if authority.first == UInt8(ascii: "[") { return nil }  // an IPv6 address: no provider's
        if let colon = authority.firstIndex(of: UInt8(ascii: ":")) { authority = authority[..<colon] }
        while authority.last == UInt8(ascii: ".") { authority = authority.dropLast() }
        guard !authority.isEmpty, authority.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        return String(decoding: authority, as: UTF8.self).lowercased()
    }

    /// The link inside a redirect: Outlook's SafeLinks (`*.safelinks.protection.outlook.com/?url=`)
    /// and Google's (`google.com/url?q=`), percent-decoded; `.some(nil)` for a redirect whose
    /// link is missing or cannot be decoded, nil for any other link.
    static func unwrapped(_ link: String) -> String?? {
        guard let host = host(of: link) else { return nil }
        let key: String
        if host.hasSuffix(".safelinks.protection.outlook.com") {
            key = "url"
        } else if host == "google.com" || host == "www.google.com" {
            guard path(of: link) == "/url" else { return nil }
            key = "q"
        } else {
            return nil
        }
        guard let value = query(of: link, key: key) else { return .some(nil) }
        return .some(percentDecoded(value))
    }

    // MARK: - Pieces

    /// The length of `http://` or `https://` at `index` (any case), when no letter or digit
    /// comes before it (`xhttp://` is no link); nil otherwise.
    private static func schemeLength(_ scalars: [Unicode.Scalar], at index: Int) -> Int? {
        if index > 0, isAlphanumeric(scalars[index - 1]) { return nil }
        for scheme in ["https://", "http://"] {
            let pattern = Array(scheme.unicodeScalars)
            guard index + pattern.count <= scalars.count else { continue }
            var matches = true
            for (offset, expected) in pattern.enumerated() where lowered(scalars[index + offset]) != expected {
                matches = false
                break
            }
            if matches { return pattern.count }
        }
        return nil
    }

    private static func endsLink(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value <= 0x20 || value == 0x7F { return true }
        if value < 0x80 { return "<>\"'`".unicodeScalars.contains(scalar) }
        switch scalar.properties.generalCategory {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control: return true
        case .openPunctuation, .closePunctuation, .otherPunctuation, .initialPunctuation, .finalPunctuation,
             .dashPunctuation, .connectorPunctuation: return true
        default: return false
        }
    }

    private static func trimTrailing(_ link: ArraySlice<Unicode.Scalar>) -> ArraySlice<Unicode.Scalar> {
        var link = link
        // Each closing bracket's count over its opening one's: what trailing ones may go.
        var unbalanced: [Unicode.Scalar: Int] = [:]
        for (open, close) in brackets {
            unbalanced[close] = link.count(where: { $0 == close }) - link.count(where: { $0 == open })
        }
        while let last = link.last {
            if ".,;:!?*".unicodeScalars.contains(last) {
                link = link.dropLast()
            } else if let excess = unbalanced[last], excess > 0 {
                unbalanced[last] = excess - 1
                link = link.dropLast()
            } else {
                break
            }
        }
        return link
    }

    private static let brackets: [(Unicode.Scalar, Unicode.Scalar)] = [("(", ")"), ("[", "]"), ("{", "}")]

    private static func path(of link: String) -> String {
        let bytes = Array(link.utf8)
        guard let hostStart = bytes.firstIndex(of: UInt8(ascii: "/")).map({ $0 + 2 }), hostStart < bytes.count,
              let slash = bytes[hostStart...].firstIndex(of: UInt8(ascii: "/")) else { return "" }
        let end = bytes[slash...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        return String(decoding: bytes[slash..<end], as: UTF8.self)
    }

    /// The first value of `key` in the link's query, as written (still percent-encoded).
    private static func query(of link: String, key: String) -> String? {
        guard let mark = link.firstIndex(of: "?") else { return nil }
        let query = link[link.index(after: mark)...].prefix { $0 != "#" }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2, parts[0].lowercased() == key { return String(parts[1]) }
        }
        return nil
    }

    /// `%XX` as its byte (and `+` as a space, as forms write it); nil when an escape is
    /// broken or the bytes are no UTF-8.
    static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            if byte == UInt8(ascii: "%") {
                guard input.count >= 2, let high = Hex.value(of: input[input.startIndex]),
                      let low = Hex.value(of: input[input.startIndex + 1]) else { return nil }
                bytes.append(high << 4 | low)
                input = input.dropFirst(2)
            } else {
                bytes.append(byte == UInt8(ascii: "+") ? 0x20 : byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func lowered(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        (0x41...0x5A).contains(scalar.value) ? Unicode.Scalar(UInt8(scalar.value + 0x20)) : scalar
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
    }
}
