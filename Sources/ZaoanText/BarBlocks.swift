/// The JSON objects bars read, written in one place for the service's formats and the
/// clients alike: an i3bar/swaybar block and a waybar custom-module object.
///
/// Fields hold text ready to show (made visible-safe, and Pango-escaped where the markup
/// says so); encoding only writes JSON. Reading one back (`init?(json:)`) keeps only the
/// fields zaoan writes, so whatever else a server sends never reaches the bar.
public struct I3barBlock: Equatable, Sendable {
    public var name = "zaoan"
    public var instance: String
    public var fullText: String
    public var shortText: String?
    public var urgent = false
    /// `pango` or `none`.
    public var markup: String
    /// The text's colour (a countdown level's, `countdown_levels`); nil: the bar's own.
    public var color: BarColor?

    public init(instance: String, fullText: String, shortText: String? = nil, urgent: Bool = false, pango: Bool, color: BarColor? = nil) {
        self.instance = instance
        self.fullText = fullText
        self.shortText = shortText
        self.urgent = urgent
        self.markup = pango ? "pango" : "none"
        self.color = color
    }

    /// `{"name","instance","full_text","short_text","color","urgent","markup"}` in this
    /// order; `short_text` and `color` only when there are.
    public var encoded: String {
        var out = ""
        out.reserveCapacity(96 + fullText.utf8.count)
        appendHead(to: &out)
        appendTail(to: &out)
        return out
    }

    /// `encoded` cut where `full_text`'s value ends, before its closing quote: a text that
    /// JSON writes as it is (printable ASCII but `"` and `\`), put between the two, gives
    /// `encoded` of the block with that text appended to `fullText` (`WatchedLine`).
    public var encodedAroundFullTextEnd: (head: String, tail: String) {
        var head = "", tail = ""
        appendHead(to: &head)
        appendTail(to: &tail)
        return (head, tail)
    }

    // The keys are constant JSON and written as they are; only the values are escaped.
    private func appendHead(to out: inout String) {
        out += #"{"name":"#
        JSONWriter.appendString(name, layout: .line, to: &out)
        out += #","instance":"#
        JSONWriter.appendString(instance, layout: .line, to: &out)
        out += #","full_text":"#
        JSONWriter.appendString(fullText, layout: .line, to: &out)
        out.unicodeScalars.removeLast()  // the closing quote (a scalar: a prepended mark may join it), written by `appendTail`
    }

    private func appendTail(to out: inout String) {
        out += "\""
        if let shortText {
            out += #","short_text":"#
            JSONWriter.appendString(shortText, layout: .line, to: &out)
        }
        if let color {
            out += #","color":"#
            JSONWriter.appendString(color.hex, layout: .line, to: &out)
        }
        out += urgent ? #","urgent":true,"markup":"# : #","urgent":false,"markup":"#
        JSONWriter.appendString(markup, layout: .line, to: &out)
        out += "}"
    }

    /// A block as another program sent it, reduced to the fields zaoan knows, with its text
    /// made safe for `pango` (the markup the reader's config asks for, whatever the block
    /// says): no control characters, and with Pango markup only entities, never a tag.
    public init?(json: String, pango: Bool) {
        guard let value = JSONReader.line(json) else { return nil }
        self.init(value: value, pango: pango)
    }

    /// The same from a parsed value (one block of an array).
    public init?(value: JSONValue, pango: Bool) {
        guard let full = value["full_text"]?.string else { return nil }
        self.init(instance: value["instance"]?.string ?? "", fullText: Self.safe(full, pango: pango),
                  shortText: value["short_text"]?.string.map { Self.safe($0, pango: pango) },
                  urgent: value["urgent"]?.bool ?? false, pango: pango,
                  color: value["color"]?.string.flatMap(BarColor.init(hex:)))
    }

    private static func safe(_ text: String, pango: Bool) -> String {
        pango ? SafeText.pangoEntitiesOnly(SafeText.visible(text)) : SafeText.visible(text)
    }

    /// A status line as another program sent it (`[{...},{...}]`): its blocks, or nil if it
    /// is not an array of at most `limit` objects.
    public static func line(json: String, pango: Bool, limit: Int) -> [I3barBlock?]? {
        guard let values = JSONReader.line(json)?.items, values.count <= limit else { return nil }
        return values.map { I3barBlock(value: $0, pango: pango) }
    }
}

/// waybar's `return-type: json` object: `{"text","tooltip","class","alt"}`. waybar renders
/// `text` and `tooltip` as Pango markup.
public struct WaybarObject: Equatable, Sendable {
    public var text: String
    public var tooltip: String?
    /// The CSS class (and `alt`): the greeting's part of day, a room's state, or `error`.
    public var state: String?
    /// Classes beside `state` (a countdown level: `warning`, `critical`): with any, `class`
    /// is an array, the state first; `alt` stays the state.
    public var levels: [String]

    public init(text: String, tooltip: String? = nil, state: String? = nil, levels: [String] = []) {
        self.text = text
        self.tooltip = tooltip
        self.state = state
        self.levels = levels
    }

    public var encoded: String {
        var fields: [(String, JSONWriter.Value)] = [("text", .string(text))]
        if let tooltip { fields.append(("tooltip", .string(tooltip))) }
        if let state {
            fields.append(("class", levels.isEmpty ? .string(state) : .array(([state] + levels).map { .string($0) })))
            fields.append(("alt", .string(state)))
        }
        return JSONWriter.write(.object(fields))
    }

    /// A class name as zaoan writes them: letters, `-` and `_`, at most 32.
    static func className(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0.properties.isAlphabetic || $0 == "-" || $0 == "_" }.prefix(32))
    }

    /// The most classes a read object keeps beside its state.
    static let maxLevels = 4

    /// An object as another program sent it, reduced to the fields zaoan writes, its texts
    /// safe for Pango (entities only) and free of control characters.
    public init?(json: String) {
        guard let object = JSONReader.line(json), let text = object["text"]?.string else { return nil }
        // A string, or an array of strings (the state, then its levels).
        let classes = object["class"].map { $0.string.map { [$0] } ?? ($0.items ?? []).compactMap(\.string) } ?? []
        let state = classes.first.map(Self.className)
        self.init(text: SafeText.pangoEntitiesOnly(SafeText.visibleLines(text)),
                  tooltip: object["tooltip"]?.string.map { SafeText.pangoEntitiesOnly(SafeText.visibleLines($0), keepingTags: true) },
                  state: state, levels: classes.dropFirst().prefix(Self.maxLevels).map(Self.className).filter { !$0.isEmpty })
    }
}
