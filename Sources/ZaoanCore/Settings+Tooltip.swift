/// `tooltip_template`: what `status`'s waybar tooltip says, read and bounded here.
extension Settings {
    /// The longest `tooltip_template`, in bytes and in lines: a tooltip is read at a glance.
    public static let maxTooltipTemplateBytes = 1_024
    public static let maxTooltipTemplateLines = 16

    /// The template, or nil (the tooltip as before) when absent, empty or past its bounds,
    /// each of those last two said as a problem.
    static func tooltipTemplate(_ text: String?, problems: inout ProblemList) -> String? {
        guard let text else { return nil }
        let key = ConfigKey.tooltipTemplate.name
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        let problem: String?
        if text.isEmpty {
            problem = "is empty; leave the key out for the tooltip as it was, or write \"{tooltip}\\n{agenda}\""
        } else if text.utf8.count > maxTooltipTemplateBytes {
            problem = "is \(text.utf8.count) bytes; at most \(maxTooltipTemplateBytes)"
        } else if lines > maxTooltipTemplateLines {
            problem = "has \(lines) lines; at most \(maxTooltipTemplateLines)"
        } else if text.unicodeScalars.contains("\r") {
            problem = "holds a carriage return; lines end with \\n"
        } else {
            problem = nil
        }
        guard let problem else { return text }
        problems.add(ConfigError(key: key, problem: problem), .defaultUsed)
        return nil
    }
}
