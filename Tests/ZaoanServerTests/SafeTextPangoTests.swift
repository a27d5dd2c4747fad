import Foundation
import Glibc
import Testing
import ZaoanText

/// Room titles reach waybar and i3bar as Pango markup. Escaping per Unicode scalar, a `<`
/// or `&` hidden in a grapheme cluster (a prepended mark before it, a combining or joining
/// mark after it) is escaped like any other; here the real libpango (through Debian's
/// python3-gi) parses every answer and must find text only, never a tag.
@Suite("Safe text: real Pango parses every title")
struct SafeTextPangoTests {
    static let markupCharacters: [Unicode.Scalar] = ["&", "<", ">", "'", "\""]
    /// Combining, enclosing, prepended (concatenation marks), joining and selector scalars.
    static let marks: [Unicode.Scalar] = [
        "\u{0300}", "\u{0301}", "\u{0338}", "\u{20D2}", "\u{20E5}", "\u{0489}", "\u{1AB0}", "\u{FE20}", "\u{302A}",
        "\u{0E31}", "\u{093F}", "\u{0600}", "\u{0601}", "\u{0605}", "\u{06DD}", "\u{070F}", "\u{08E2}", "\u{110BD}",
        "\u{110CD}", "\u{200D}", "\u{200C}", "\u{034F}", "\u{FE0F}", "\u{E0100}", "\u{1F3FB}",
    ]

    static var titles: [String] {
        var titles: [String] = []
        for mark in marks {
            for character in markupCharacters {
                for shape in [[mark, character], [character, mark], [mark, character, mark]] {
                    titles.append("a" + String(String.UnicodeScalarView(shape)) + "b")
                }
            }
        }
        titles += ["<big><b>x</b></big>", "<\u{0338}big>y", "\u{0600}<span size='x-large'>z</span>", "&lt\u{0301};", "&#60\u{0338};"]
        return titles
    }

    static var unavailable: String? {
        let check = "import gi; gi.require_version('Pango', '1.0'); from gi.repository import Pango"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Neighbour.python)
        process.arguments = ["-c", check]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "\(Neighbour.python) is missing" }
        process.waitUntilExit()
        return process.terminationStatus == 0 ? nil : "python3-gi and gir1.2-pango-1.0 are missing (scripts/test installs them)"
    }

    /// A request word for `title`, quoted for the protocol scalar by scalar (String's
    /// replacingOccurrences compares Characters and would miss a `"` in a cluster).
    private func quoted(_ title: String) -> String {
        var out = "\""
        for scalar in title.unicodeScalars {
            if scalar == "\\" || scalar == "\"" { out += "\\" }
            out.unicodeScalars.append(scalar)
        }
        return out + "\""
    }

    @Test("every combining, prepended and joining mark around every markup character: valid markup, no tag, the title as typed",
          .enabled(if: unavailable == nil, "\(unavailable ?? "")"))
    func everyTitle() throws {
        let service = try TestService.start(config: #"{"i3bar_markup": "pango", "language": "en", "max_rooms": 1000}"#)
        let titles = Self.titles
        var script = "session\n"
        for (index, title) in titles.enumerated() {
            script += "live add t +1h \(quoted(title))\n--format=json countdown\n--format=i3bar countdown\nlive add r\(index) +2h \(quoted(title))\n"
        }
        script += "--format=json live list\nquit\n"
        let client = try RawClient(path: service.socketPath, timeout: 60)
        try client.send(script)
        let lines = try client.readToEndText().split(separator: "\n").map(String.init)
        try #require(lines.count == 1 + titles.count * 4 + 2, "\(lines.count) answers: \(lines.prefix(6))")

        // Every markup text, with the title it must show as plain text.
        var cases: [[String: String]] = []
        for (index, title) in titles.enumerated() {
            let base = 1 + index * 4
            #expect(lines[base] == "ok" && lines[base + 3] == "ok", "\(title.debugDescription): \(lines[base]) \(lines[base + 3])")
            let visible = SafeText.visible(title)
            let waybar = try #require(try JSONSerialization.jsonObject(with: Data(lines[base + 1].utf8)) as? [String: Any])
            let block = try #require(try JSONSerialization.jsonObject(with: Data(lines[base + 2].utf8)) as? [String: Any])
            #expect(block["markup"] as? String == "pango")
            for (name, markup) in [("waybar text", waybar["text"]), ("waybar tooltip", waybar["tooltip"]),
                                   ("i3bar full_text", block["full_text"])] {
                cases.append(["where": "\(name) of \(title.debugDescription)", "markup": markup as? String ?? "", "plain": visible])
            }
        }
        let list = try #require(try JSONSerialization.jsonObject(with: Data(lines[1 + titles.count * 4].utf8)) as? [String: Any])
        cases.append(["where": "waybar text of live list", "markup": list["text"] as? String ?? "", "plain": ""])

        let checker = """
            import json, sys
            import gi
            gi.require_version('Pango', '1.0')
            from gi.repository import Pango
            failures = []
            for case in json.load(open(sys.argv[1])):
                try:
                    ok, attributes, text, _ = Pango.parse_markup(case["markup"], -1, "\\0")
                except Exception as error:
                    failures.append(f"{case['where']}: not valid markup: {error}")
                    continue
                if attributes.get_attributes():
                    failures.append(f"{case['where']}: markup applied {len(attributes.get_attributes())} attribute(s)")
                if case["plain"] and case["plain"] not in text:
                    failures.append(f"{case['where']}: shows {text!r}, not the title {case['plain']!r}")
            print(json.dumps({"checked": len(json.load(open(sys.argv[1]))), "failures": failures}))
            """
        try service.directory.write("cases.json", String(decoding: try JSONSerialization.data(withJSONObject: cases), as: UTF8.self))
        try service.directory.write("check.py", checker)
        let result = try service.run(Neighbour.python, [service.directory.file("check.py"), service.directory.file("cases.json")], timeout: 60)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], "\(result)")
        let failures = report["failures"] as? [String] ?? ["no report"]
        print("pango: \(report["checked"] ?? 0) markup texts parsed by libpango, \(failures.count) problems")
        #expect(failures.isEmpty, "\(failures.prefix(10))")
        try service.stop()
    }
}
