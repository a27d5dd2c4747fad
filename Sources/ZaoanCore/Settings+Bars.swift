/// `tooltip_template` and `icons`: what waybar's tooltip and `{icon}` say, read and bounded here.
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

/// `icons`: each entry checked on its own; a bad one is left out, the others kept.
extension Settings {
    static func icons(_ value: JSONValue?, problems: inout ProblemList) -> Icons {
        let key = ConfigKey.icons.name
        guard let unique = problems.uniqueMembers(of: value, key: key) else { return Icons() }
        var icons = Icons()
        for member in unique {
            let place = "\(key).\(RequestParser.shorten(member.key))"
            do throws(ConfigError) {
                guard Icons.keys.contains(member.key) else {
                    let hint = Spelling.hint(for: member.key, among: Icons.keys,
                        otherwise: "the keys are " + Icons.keys.joined(separator: ", "))
                    throw ConfigError(key: place, problem: "unknown key; \(hint)", at: member.keyPosition)
                }
                guard let text = try ConfigDocument.string(member.value, key: place) else { continue }
                if let why = Icons.problem(with: text) { throw ConfigError(key: place, problem: why, at: member.value.position) }
                if let provider = Icons.providerKeys.first(where: { $0.key == member.key })?.provider {
                    icons.byProvider[provider] = text
                } else {
                    icons.byState[member.key] = text
                }
            } catch {
                problems.add(error, .entryLeftOut)
            }
        }
        return icons
    }
}
