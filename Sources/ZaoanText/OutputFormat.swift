/// How an answer is written: `plain` text, a waybar `json` object, an `i3bar` block, or
/// plain text escaped for `tmux`'s or `polybar`'s status line.
public enum OutputFormat: String, Hashable, Sendable, CaseIterable {
    case plain
    case json
    case i3bar
    case tmux
    case polybar

    /// Escapes a line of visible-safe text for the target's own formatting codes.
    public func escaped(_ text: String) -> String {
        switch self {
        case .tmux: return SafeText.tmux(text)
        case .polybar: return SafeText.polybar(text)
        case .plain, .json, .i3bar: return text
        }
    }

    /// The list for help texts and errors: `plain, json, i3bar, tmux or polybar`.
    public static var names: String {
        let all = allCases.map(\.rawValue)
        return all.dropLast().joined(separator: ", ") + " or " + all.last!
    }
}
