import ZaoanText

/// An event's URL as a bar click may open it: the text is the service's, which took it from
/// a calendar file, so it is hostile until shown otherwise. Only the schemes the config
/// allows (`bar_url_schemes`: https and http by default) pass — never `file:`,
/// `javascript:` or a scheme-less word an opener would read as an option or a path — and
/// nothing anywhere that is not plainly visible (`LinkText`: no space, control, format,
/// default-ignorable, blank-looking, private-use or unassigned scalar).
public enum BarURL {
    /// The longest URL opened: the longest a calendar's URL is kept.
    public static let maxBytes = TextLimits.urlBytes

    /// `url` if it may be opened, else why not.
    public static func check(_ url: String, schemes: [String]) -> Result<String, Refusal> {
        guard !url.isEmpty, url.utf8.count <= maxBytes else { return .failure(Refusal("it is empty or longer than \(maxBytes) bytes")) }
        if let (scalar, refusal) = LinkText.firstRefused(in: url) {
            return .failure(Refusal("it holds \(scalar.codePoint), \(refusal), which no link needs"))
        }
        guard let colon = url.utf8.firstIndex(of: UInt8(ascii: ":")) else { return .failure(Refusal("it has no scheme (https:)")) }
        let scheme = String(decoding: url.utf8[..<colon], as: UTF8.self).lowercased()
        guard isScheme(scheme), schemes.contains(scheme) else {
            return .failure(Refusal("its scheme '\(RequestParser.shorten(scheme))' is not in bar_url_schemes (\(schemes.joined(separator: ", ")))"))
        }
        return .success(url)
    }

    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// RFC 3986: a letter, then letters, digits, `+`, `-`, `.`; here lowercase, at most 32.
    public static func isScheme(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first >= 0x61, first <= 0x7A, bytes.count <= 32 else { return false }
        return bytes.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }
    }
}
