/// What a link (an event's URL, on its way to `bar_url_opener`) may not hold: any Unicode
/// space, control or format character — general categories Zs, Zl, Zp, Cc and Cf. No URL
/// needs one, and each can make a link read as something it is not: a no-break space or
/// U+3000 splits it where the opener does not, a right-to-left override (U+202E) shows
/// `https://example.org/‮gpj.exe` as ending in `.jpg`, a zero-width space hides in a
/// host name. The service keeps a calendar's URL by this rule and `zaoan bar` opens one
/// only by it, so a hostile server is held to it too.
public enum LinkText {
    /// The first scalar of `text` a link may not hold, or nil.
    public static func firstRefused(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first(where: isRefused)
    }

    public static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format: return true
        default: return false
        }
    }
}
