import Foundation
import Glibc
import Testing
import ZaoanCore

/// The man pages zaoan(1) and zaoan.conf(5), written in scdoc: they build, and they
/// document every request the service lists in `help`, every command and option of the
/// command line, and every config key.
@Suite("man pages")
struct ManPageTests {
    static let directory = Locations.packageRoot + "/docs/man"
    static let commandPage = directory + "/zaoan.1.scd"
    static let configPage = directory + "/zaoan.conf.5.scd"
    static let scdoc = Locations.tool("scdoc")

    /// Definition-list terms of a page: lines that start with `*`, with scdoc's `*`
    /// (bold) marks removed, e.g. "live add _ID_ _START_ ...".
    static func terms(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix("*") }
            .map { $0.replacingOccurrences(of: "*", with: "") }
    }

    @Test("scdoc builds both pages without a word of complaint",
          .enabled(if: scdoc != nil, "scdoc not found (Debian package scdoc)"),
          arguments: [commandPage, configPage])
    func builds(_ page: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try #require(FileManager.default.contents(atPath: page))
        let result = try Tool.run(Self.scdoc!, [], stdin: source, environment: Tool.baseEnvironment(home: directory.path),
                                  timeout: 20, scratch: directory)
        #expect(result.status == 0 && result.errorOutput.isEmpty, "\(page): \(result.errorOutput)")
        #expect(result.output.contains("\n.TH \"zaoan"), "no roff title in the output of \(page)")
    }

    @Test("zaoan(1) documents every request of the service's help answer")
    func everyRequest() throws {
        let service = try TestService.start()
        defer { try? service.stop() }
        let help = try service.ask("help")
        let terms = try Self.terms(Self.commandPage)
        var commands: [String] = []
        for line in help.split(separator: "\n") {
            // "live rm ID | live list | live show ID": each usage before the description.
            let usage = line.components(separatedBy: "  ").first ?? ""
            for segment in usage.components(separatedBy: " | ") {
                var words: [String] = []
                for word in segment.split(separator: " ") {
                    guard let first = word.first, first.isLowercase || first == "-" else { break }
                    // `status]`: the request word, then the end of an optional group (`join [... | status]`).
                    words.append(String(word.prefix(while: { $0 != "=" && $0 != "]" })))
                    if first == "-" { break }
                }
                if !words.isEmpty { commands.append(words.joined(separator: " ")) }
            }
        }
        #expect(commands.count >= 15 && commands.contains("live add") && commands.contains("--format"), "\(commands)")
        for command in commands {
            #expect(terms.contains { $0 == command || $0.hasPrefix(command + " ") || $0.hasPrefix(command + "=") },
                    "zaoan.1.scd has no entry for the request `\(command)`")
        }
    }

    @Test("zaoan(1) documents every command and option of zaoan --help")
    func everyCommandLineWord() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let usage = try Tool.run(Locations.zaoan, ["--help"], environment: try TestService.isolatedEnvironment(in: directory),
                                 scratch: directory)
        try #require(usage.status == 0, "\(usage)")
        let page = try String(contentsOfFile: Self.commandPage, encoding: .utf8).replacingOccurrences(of: "*", with: "")
        let words = usage.output.split(whereSeparator: { " \n[]|,()".contains($0) }).map(String.init)
        let options = Set(words.filter { $0.hasPrefix("-") && $0.count > 1 }.map { String($0.prefix(while: { $0 != "=" })) })
        let commands = Set(usage.output.split(separator: "\n").compactMap { line -> String? in
            let parts = line.split(separator: " ")
            // "  zaoan serve [--socket PATH] ...", not the title line "zaoan 0.1.0 — ..."
            return line.hasPrefix(" ") && parts.count >= 2 && parts[0] == "zaoan" && !parts[1].hasPrefix("-") ? String(parts[1]) : nil
        })
        #expect(options.isSuperset(of: ["--socket", "--config", "--exit-idle-time", "--format", "--help", "--version"]), "\(options)")
        #expect(commands == ["serve", "ask", "watch", "bar", "click", "join", "cal", "check-config"], "\(commands)")
        for word in options.union(commands) {
            #expect(page.contains(word), "zaoan.1.scd does not mention `\(word)`")
        }
    }

    /// The keys once came from check-config's message for an unknown key, which listed them
    /// all; issue 18 has it name the key meant instead, or point here when none is close.
    /// So the keys come from the list the reader takes them from, and the message is
    /// checked to send the user to this page.
    @Test("zaoan.conf(5) documents every config key zaoan knows")
    func everyConfigKey() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("config.json", #"{"no_such_key": 1}"#)
        let check = try Tool.run(Locations.zaoan, ["check-config", directory.file("config.json")],
                                 environment: try TestService.isolatedEnvironment(in: directory), scratch: directory)
        // "c.json:1:2: config key 'no_such_key': unknown key; zaoan.conf(5) lists the keys"
        #expect(check.status == 1 && check.errorOutput.contains("config key 'no_such_key': unknown key; zaoan.conf(5) lists the keys"), "\(check)")
        let keys = ConfigFile.knownKeys
        #expect(keys.count >= 19 && keys.contains("admin_group"), "\(keys)")
        let terms = try Self.terms(Self.configPage)
        for key in keys {
            #expect(terms.contains { $0 == key || $0.hasPrefix(key + " ") }, "zaoan.conf.5.scd has no entry for the key `\(key)`")
        }
    }
}
