/// The one rule for a tz database zone name, checked before any path is built from one or
/// any library (the tz reader, Foundation, libical) is handed one: 1 to 64 bytes of
/// `A-Z a-z 0-9 / _ + -`, no leading, trailing or doubled `/`. There is no `.`, so no `.`
/// or `..` component, and no absolute path: a name from a request, the config or a calendar
/// file can only name a file under the zoneinfo directory.
public enum ZoneName {
    /// The longest name accepted (the longest in the tz database has 32 bytes).
    public static let maxLength = 64

    public static func isValid(_ name: String) -> Bool {
        problem(name) == nil
    }

    /// Throws the reason `name` is not a zone name.
    public static func check(_ name: String) throws(ZoneInfoError) {
        if let problem = problem(name) { throw ZoneInfoError(problem) }
    }

    /// Why `name` is refused, or nil.
    static func problem(_ name: String) -> String? {
        let bytes = name.utf8
        guard !bytes.isEmpty, bytes.count <= maxLength else { return "a zone name has 1 to \(maxLength) characters" }
        for byte in bytes {
            let allowed = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            guard allowed else { return "a zone name has only letters, digits, '/', '_', '+' and '-'" }
        }
        var previous = UInt8(ascii: "/")  // so a leading `/` is an empty part
        for byte in bytes {
            if byte == UInt8(ascii: "/"), previous == UInt8(ascii: "/") { return emptyPart }
            previous = byte
        }
        return previous == UInt8(ascii: "/") ? emptyPart : nil
    }

    private static let emptyPart = "a zone name is a relative path without empty, '.' or '..' parts"
}
