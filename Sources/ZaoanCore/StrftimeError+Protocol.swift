extension StrftimeError {
    /// The refusal as the client reads it.
    public var protocolError: ProtocolError {
        switch self {
        case .notConversions(let problems):
            let named = problems.prefix(4).map(\.description).joined(separator: "; ")
            let more = problems.count > 4 ? "; and \(problems.count - 4) more" : ""
            let them = problems.count == 1 ? "it" : "them"
            return ProtocolError(.badArgument, "\(named)\(more); GNU date would print \(them) as written. Write %% for a literal %")
        case .widthTooLarge(let written, let width):
            return ProtocolError(.badArgument, "'\(RequestParser.shorten(written))' asks for a width of \(width); zaoan allows widths up to \(StrftimeFormat.maxWidth)")
        case .formatTooLong(let length):
            return ProtocolError(.badArgument, "the pattern is \(length) characters long; at most \(StrftimeFormat.maxLength)")
        case .outputTooLong:
            return ProtocolError(.badArgument, "the pattern formats to more than \(StrftimeFormat.maxOutputBytes / 1024) KiB; zaoan answers at most that")
        case .instantOutOfRange:
            return ProtocolError(.badArgument, "the time is too far from 1970 to format")
        }
    }
}

extension StrftimeProblem: CustomStringConvertible {
    /// The problem as the client reads it, quoting what was written (shortened).
    public var description: String {
        let name = "'\(RequestParser.shorten(written))'"
        switch reason {
        case .unknownConversion: return "\(name) is not a conversion"
        case .modifierNotAllowed(let modifier): return "\(name): %\(written.last.map(String.init) ?? "") takes no \(modifier) modifier"
        case .decoratedPercent: return "\(name): %% takes no flags, width or modifier"
        case .colonNotBeforeZ: return "\(name): colons go only before z (%:z, %::z, %:::z)"
        case .tooManyColons: return "\(name): at most three colons (%:::z)"
        case .alternativeColonOffset: return "\(name): the O modifier does not go with %:z"
        case .endOfFormat: return "\(name) at the end is not a conversion"
        case .nulByte: return "a NUL byte ends the pattern for date"
        }
    }
}
