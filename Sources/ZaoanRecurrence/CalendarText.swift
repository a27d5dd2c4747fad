import ZaoanText

/// Text from calendar files on its way to a prompt or a bar: made safe by `SafeText`, then
/// cut to a size a bar can show. Cuts fall between Unicode scalars, so a grapheme with
/// 10,000 combining marks costs no more than its share of the byte limit.
public enum CalendarText {
    /// One line: line breaks and controls become their pictures (`SafeText.visible`); nil
    /// for empty text. A cut text ends in `…`, within the limits.
    public static func oneLine(_ raw: String, maxBytes: Int = CalendarLimits.titleBytes,
                               maxCharacters: Int = CalendarLimits.titleCharacters) -> String? {
        let safe = SafeText.visible(SafeText.trimmed(raw))
        return safe.isEmpty ? nil : bounded(safe, maxBytes: maxBytes, maxCharacters: maxCharacters)
    }

    /// Several lines (a description): each line made safe, the line breaks kept.
    public static func lines(_ raw: String, maxBytes: Int = CalendarLimits.descriptionBytes) -> String? {
        let unified = raw.replacing("\r\n", with: "\n")
        let safe = SafeText.visibleLines(SafeText.trimmed(unified))
        return safe.isEmpty ? nil : bounded(safe, maxBytes: maxBytes, maxCharacters: maxBytes)
    }

    /// A URL as written, if it is no longer than `CalendarLimits.urlBytes` and holds nothing
    /// `LinkText` refuses (a space, control or format character, an invisible, blank-looking,
    /// private-use or unassigned one: the rule `zaoan bar` opens links by; no URL has them).
    /// The consumer checks schemes.
    public static func url(_ raw: String) -> String? {
        let text = SafeText.trimmed(raw)
        guard !text.isEmpty, text.utf8.count <= CalendarLimits.urlBytes, LinkText.firstRefused(in: text) == nil else { return nil }
        return text
    }

    /// At most `maxBytes` of UTF-8 and `maxCharacters` Characters; a cut text ends in `…`.
    /// The byte cut comes first and falls between scalars, so counting Characters after it
    /// is cheap even for a grapheme of 10,000 combining marks.
    package static func bounded(_ text: String, maxBytes: Int, maxCharacters: Int) -> String {
        // Bytes first: counting the Characters of a text within maxBytes is cheap.
        guard text.utf8.count > maxBytes || text.count > maxCharacters else { return text }
        let ellipsis = "…"
        let cut = prefix(text, maxBytes: maxBytes - ellipsis.utf8.count)
        // Room for the ellipsis in the Characters too (a cut of exactly maxCharacters made 121).
        return String(cut.prefix(maxCharacters - 1)) + ellipsis
    }

    /// The longest prefix of whole scalars within `maxBytes` of UTF-8 (a byte cut could end
    /// inside a scalar, whose repair would then be longer than the limit).
    public static func prefix(_ text: String, maxBytes: Int) -> String {
        guard text.utf8.count > maxBytes else { return text }
        var scalars = String.UnicodeScalarView()
        var bytes = 0
        for scalar in text.unicodeScalars {
            bytes += UTF8.width(scalar)
            guard bytes <= maxBytes else { break }
            scalars.append(scalar)
        }
        return String(scalars)
    }
}
