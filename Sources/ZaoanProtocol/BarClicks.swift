import ZaoanText

/// A mouse button as i3bar numbers it and as `bar_clicks` and `zaoan click` name it.
public enum ClickButton: String, CaseIterable, Hashable, Sendable {
    case left, middle, right
    case wheelUp = "wheel-up"
    case wheelDown = "wheel-down"

    /// i3bar's number (1 left, 2 middle, 3 right, 4 wheel up, 5 wheel down); nil for the
    /// others it sends (6 and 7 scroll sideways, 8 and 9 are back and forward), which no
    /// action is bound to.
    public init?(i3bar number: Int) {
        switch number {
        case 1: self = .left
        case 2: self = .middle
        case 3: self = .right
        case 4: self = .wheelUp
        case 5: self = .wheelDown
        default: return nil
        }
    }

    /// A button as `zaoan click` takes it: its name, or its i3bar number.
    public init?(word: String) {
        if let named = ClickButton(rawValue: word.lowercased()) {
            self = named
        } else if word.count == 1, let number = Int(word) {
            self.init(i3bar: number)
        } else {
            return nil
        }
    }

    public static let names = allCases.map(\.rawValue)
}

/// What a click does: a built-in action on the block clicked, or a command run for it.
public enum ClickAction: Equatable, Sendable {
    /// The ticker shows the next room (its skip grows by one), or the previous one.
    case next, previous
    /// A clock shows the next or previous pattern of `bar_clock_formats`.
    case nextFormat, previousFormat
    /// A clock shows the next zone of `bar_clock_zones`, after the last the configured zone.
    case nextZone
    /// The month grid shows the next or previous month, or this one again.
    case nextMonth, previousMonth, thisMonth
    /// Opens the link (a calendar event's URL) of what the ticker, countdown or status shows.
    case openLink
    /// Opens the meeting link (`join`) of what the ticker, countdown or status shows, else
    /// what `openLink` opens.
    case join
    case none
    /// Runs this argv (a command name searched on PATH, or an absolute path, then its
    /// arguments): spawned directly, never through a shell, never waited for.
    case command([String])

    /// The built-in actions by the word `bar_clicks` and the click channel spell them with.
    public static let builtIn: [(word: String, action: ClickAction)] = [
        ("next", .next), ("previous", .previous), ("next-format", .nextFormat), ("previous-format", .previousFormat),
        ("next-zone", .nextZone), ("next-month", .nextMonth), ("previous-month", .previousMonth), ("this-month", .thisMonth),
        ("open-link", .openLink), ("join", .join), ("none", .none),
    ]

    public init?(word: String) {
        guard let found = Self.builtIn.first(where: { $0.word == word }) else { return nil }
        self = found.action
    }

    /// Whether it opens a link (`open-link`, `join`): one watch of a block does, not each.
    public var opensLink: Bool { self == .openLink || self == .join }

    /// The word of a built-in action; nil for a command.
    public var word: String? {
        Self.builtIn.first { $0.action == self }?.word
    }

    /// The blocks (by request word) a built-in action can change; nil: any block (`none`, a
    /// command).
    public var blocks: [String]? {
        switch self {
        case .next, .previous: return ["ticker"]
        case .nextFormat, .previousFormat, .nextZone: return ["time"]
        case .nextMonth, .previousMonth, .thisMonth: return ["month"]
        case .openLink, .join: return BarClicks.linkBlocks
        case .none, .command: return nil
        }
    }
}

/// `bar_clicks`: what each button does on each block, as i3status-rust's `[[block.click]]`
/// lets one say. Keyed by the block's request word (`ticker`, `time`, `live list`) or `*`
/// for every block; each maps button names to an action word or `{"command": [ARGV...]}`.
/// A block's own entry comes first, then `*`'s, then zaoan's default for the block — so
/// without the key every click does what it always did.
///
/// One rule for the service (`Settings.resolve`, so `check-config` and reloads) and for the
/// clients (`zaoan bar`, `zaoan click`, `zaoan watch`), which read it through `BarConfig`.
public struct BarClicks: Equatable, Sendable {
    /// What the file sets: block word (or `*`) → button → action.
    public private(set) var table: [String: [ClickButton: ClickAction]]

    public init(_ table: [String: [ClickButton: ClickAction]] = [:]) {
        self.table = table
    }

    /// The key that applies to every block.
    public static let everyBlock = "*"
    /// The most arguments a command may have, its name included.
    public static let maxArguments = 64
    /// The most bytes of UTF-8 one argument may have.
    public static let maxArgumentBytes = 4096
    /// The blocks whose shown room or event has a link (`url` takes these).
    public static let linkBlocks = ["ticker", "countdown", "status"]

    /// The request words a block can start with: every request a bar can show (watchable),
    /// but not the combinators and options (`blocks`, `--format`), whose blocks are named by
    /// what is inside.
    public static let blockWords: [String] = {
        var words: [String] = []
        for row in RequestKind.table where row.isWatchable && row.shape == .request && !words.contains(row.words) {
            words.append(row.words)
        }
        return words
    }()

    /// The blocks a built-in action can change: only a watch of one of these has anything
    /// for `zaoan click` to tell it (a command runs from the click itself).
    public static let blocksWithActions: [String] = {
        var words: [String] = []
        for (_, action) in ClickAction.builtIn {
            for block in action.blocks ?? [] where !words.contains(block) { words.append(block) }
        }
        return words
    }()

    /// What `button` does on a block whose request word is `block`.
    public func action(block: String, button: ClickButton) -> ClickAction {
        table[block]?[button] ?? table[Self.everyBlock]?[button] ?? Self.defaultAction(block: block, button: button)
    }

    /// zaoan's own bindings, as `zaoan bar` has always had them: on the ticker the left
    /// button and wheel down show the next room, the right button and wheel up the previous
    /// one, the middle button opens its link; on a clock the same buttons cycle
    /// `bar_clock_formats` and the middle one `bar_clock_zones`; the left button opens a
    /// countdown's or the status's link. On the month grid, the wheel steps months as
    /// waybar's clock calendar does (up: the next month), the middle and right buttons come
    /// back to this month. Nothing else.
    public static func defaultAction(block: String, button: ClickButton) -> ClickAction {
        switch (block, button) {
        case ("ticker", .left), ("ticker", .wheelDown): return .next
        case ("ticker", .right), ("ticker", .wheelUp): return .previous
        case ("ticker", .middle): return .openLink
        case ("time", .left), ("time", .wheelDown): return .nextFormat
        case ("time", .right), ("time", .wheelUp): return .previousFormat
        case ("time", .middle): return .nextZone
        case ("countdown", .left), ("status", .left): return .openLink
        case ("month", .wheelUp): return .nextMonth
        case ("month", .wheelDown): return .previousMonth
        case ("month", .middle), ("month", .right): return .thisMonth
        default: return .none
        }
    }

    // MARK: - Reading the key

    private static var key: String { ConfigKey.barClicks.name }

    /// Reads and checks `bar_clicks` as the file has it (nil for null). A bad block or
    /// button costs only itself, with its place in `problems`: zaoan's default stands for
    /// it and the rest of the table is kept. Thrown only when the key is not an object.
    public static func read(_ value: JSONValue, problems: inout [ConfigError]) throws(ConfigError) -> BarClicks? {
        if value.isNull { return nil }
        guard let members = value.members else {
            throw ConfigError(key: key, problem: "expected an object of blocks, as {\"ticker\": {\"left\": \"next\"}}", at: value.position)
        }
        let (blocks, repeated) = ConfigDocument.unique(members, under: key)
        problems += repeated.map { $0.with(.instead("zaoan's clicks stand for that block")) }
        var table: [String: [ClickButton: ClickAction]] = [:]
        for block in blocks {
            let name = block.key
            let place = "\(key).\(RequestParser.shorten(name))"
            guard name == everyBlock || blockWords.contains(name) else {
                let hint = Spelling.hint(for: name, among: blockWords,
                    otherwise: "a block is named by its request word (\(blockWords.prefix(6).joined(separator: ", ")), ...) or \"*\"")
                problems.append(ConfigError(key: place, problem: "not a block a bar can show; \(hint)", at: block.keyPosition, fallback: .ignored))
                continue
            }
            guard let members = block.value.members else {
                problems.append(ConfigError(key: place, problem: "expected an object of buttons, as {\"left\": \"next\", \"right\": {\"command\": [\"notify-send\", \"hi\"]}}",
                                            at: block.value.position, fallback: .instead("zaoan's clicks stand for that block")))
                continue
            }
            table[name] = buttons(members, block: name, place: place, problems: &problems)
        }
        return BarClicks(table)
    }

    /// One block's object: button name → action; a bad entry is left out with its problem.
    private static func buttons(_ members: [JSONMember], block: String, place: String,
                                problems: inout [ConfigError]) -> [ClickButton: ClickAction] {
        let instead = ConfigError.Fallback.instead("zaoan's default for that button stands")
        let (entries, repeated) = ConfigDocument.unique(members, under: place)
        problems += repeated.map { $0.with(instead) }
        var buttons: [ClickButton: ClickAction] = [:]
        for entry in entries {
            let entryPlace = "\(place).\(RequestParser.shorten(entry.key))"
            do throws(ConfigError) {
                guard let button = ClickButton(rawValue: entry.key) else {
                    let hint = Spelling.suggestion(for: entry.key, among: ClickButton.names).map { "did you mean '\($0)'? " } ?? ""
                    throw ConfigError(key: entryPlace, problem: "not a button; \(hint)the buttons are \(ClickButton.names.joined(separator: ", "))",
                                      at: entry.keyPosition, fallback: .ignored)
                }
                let action = try self.action(entry.value, place: entryPlace)
                if block != everyBlock, let fitting = action.blocks, !fitting.contains(block) {
                    let word = action.word ?? ""
                    throw ConfigError(key: entryPlace, problem: "'\(word)' does nothing on a \(block) block; it acts on \(fitting.joined(separator: ", ")). A \(block) block takes \(words(for: block))",
                                      at: entry.value.position)
                }
                buttons[button] = action
            } catch {
                problems.append(error.fallback == nil ? error.with(instead) : error)
            }
        }
        return buttons
    }

    /// The actions a block takes, for an error about one it does not.
    private static func words(for block: String) -> String {
        let fitting = ClickAction.builtIn.filter { $0.action.blocks?.contains(block) ?? true }.map(\.word)
        return fitting.joined(separator: ", ") + " or {\"command\": [...]}"
    }

    /// An action: a built-in word, or `{"command": [ARGV...]}`.
    private static func action(_ value: JSONValue, place: String) throws(ConfigError) -> ClickAction {
        if let word = value.string {
            guard let action = ClickAction(word: word) else {
                let words = ClickAction.builtIn.map(\.word)
                let hint = Spelling.suggestion(for: word, among: words).map { "did you mean '\($0)'? " } ?? ""
                throw ConfigError(key: place, problem: "'\(RequestParser.shorten(word))' is not an action; \(hint)the actions are \(words.joined(separator: ", ")), or {\"command\": [\"notify-send\", \"hi\"]}",
                                  at: value.position)
            }
            return action
        }
        guard let members = value.members else {
            throw ConfigError(key: place, problem: "expected an action word such as \"next\", or {\"command\": [\"notify-send\", \"hi\"]}", at: value.position)
        }
        let (unique, repeated) = ConfigDocument.unique(members, under: place)
        if let first = repeated.first { throw first }
        if let other = unique.first(where: { $0.key != "command" }) {
            throw ConfigError(key: "\(place).\(RequestParser.shorten(other.key))", problem: "unknown key; a command action is {\"command\": [\"notify-send\", \"hi\"]}",
                              at: other.keyPosition)
        }
        guard let command = unique.first else {
            throw ConfigError(key: place, problem: "needs \"command\", as {\"command\": [\"notify-send\", \"hi\"]}", at: value.position)
        }
        let commandPlace = place + ".command"
        guard let argv = try ConfigDocument.strings(command.value, key: commandPlace) else {
            throw ConfigError(key: commandPlace, problem: "expected an array of strings: the command, then its arguments", at: command.value.position)
        }
        try check(argv, place: commandPlace, at: command.value.position)
        return .command(argv)
    }

    /// An argv that can be run as it is: a command name or absolute path first, at most
    /// `maxArguments` arguments of at most `maxArgumentBytes` each, and no NUL (a C argument
    /// would end there, silently running something else than written).
    private static func check(_ argv: [String], place: String, at position: TextPosition) throws(ConfigError) {
        guard let name = argv.first, !name.isEmpty else {
            throw ConfigError(key: place, problem: "needs a command: [\"notify-send\", \"hi\"], never empty", at: position)
        }
        if argv.count > maxArguments {
            throw ConfigError(key: place, problem: "has \(argv.count) arguments; at most \(maxArguments)", at: position)
        }
        if let long = argv.first(where: { $0.utf8.count > maxArgumentBytes }) {
            throw ConfigError(key: place, problem: "'\(RequestParser.shorten(long))' is longer than \(maxArgumentBytes) bytes", at: position)
        }
        if argv.contains(where: { $0.utf8.contains(0) }) {
            throw ConfigError(key: place, problem: "an argument holds a NUL character, which no command can be given", at: position)
        }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            throw ConfigError(key: place, problem: "'\(RequestParser.shorten(name))': the command's name holds a control character", at: position)
        }
        if !(name.hasPrefix("/") || !name.contains("/")) {
            throw ConfigError(key: place, problem: "'\(RequestParser.shorten(name))' must be a command name (notify-send) or an absolute path; a relative path depends on the bar's folder",
                              at: position)
        }
    }
}
