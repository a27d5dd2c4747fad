import Foundation

/// The shipped packaging/integrations/vdirsyncer/config, changed only where a user changes
/// it: the CalDAV account's `url`, and for a subscription, its section uncommented with its
/// `url` set. Each change throws, naming the line, if the shipped file no longer has it.
struct ShippedVdirsyncerConfig {
    static let path = Locations.packageRoot + "/packaging/integrations/vdirsyncer/config"
    static let accountURL = #"url = "https://cal.example.org/alice/""#
    /// The subscription's first line, commented out as shipped; its section runs to the
    /// first line that does not start with `#`.
    static let subscriptionStart = "#[pair holidays]"
    static let subscriptionURL = #"url = "https://holidays.example.org/de.ics""#

    private(set) var lines: [String]
    var text: String { lines.joined(separator: "\n") }

    init() throws {
        lines = try String(contentsOfFile: Self.path, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The CalDAV pair's `url` set to `url`, as the config's instructions say.
    func account(_ url: String) throws -> Self {
        try replacing(Self.accountURL, with: #"url = "\#(url)""#)
    }

    /// The `holidays` subscription uncommented (the `#` in front of each of its lines
    /// removed) and its `url` set to `url`.
    func subscription(_ url: String) throws -> Self {
        guard let start = lines.firstIndex(of: Self.subscriptionStart) else {
            throw TestFailure("\(Self.path) should hold the line \(Self.subscriptionStart); the test uncomments the section it starts")
        }
        var changed = self
        var index = start
        while index < lines.count, lines[index].hasPrefix("#") {
            changed.lines[index].removeFirst()
            index += 1
        }
        return try changed.replacing(Self.subscriptionURL, with: #"url = "\#(url)""#)
    }

    private func replacing(_ line: String, with replacement: String) throws -> Self {
        guard lines.filter({ $0 == line }).count == 1 else {
            throw TestFailure("\(Self.path) should hold the line \(line) once (uncommented); the test puts its server there")
        }
        var changed = self
        changed.lines = lines.map { $0 == line ? replacement : $0 }
        return changed
    }
}

/// Debian's vdirsyncer running a config as a user would, with HOME in the test's directory:
/// the password read from ~/.config/vdirsyncer/caldav-password, calendars synced into
/// ~/.local/share/calendars/NAME/, the status under ~/.local/share/vdirsyncer/.
struct VdirSyncer {
    let executable: String
    let environment: [String: String]
    let scratch: TemporaryDirectory
    let config: String
    /// Where the shipped config puts the calendar called `name`.
    func folder(_ name: String) -> String { environment["HOME"]! + "/.local/share/calendars/" + name }

    init(executable: String, in world: TemporaryDirectory, environment: [String: String],
         config: ShippedVdirsyncerConfig, password: String = "secret") throws {
        self.executable = executable
        self.environment = environment
        scratch = world
        self.config = world.file("vdirsyncer.conf")
        try world.write("vdirsyncer.conf", config.text)
        let home = environment["HOME"]!
        try world.write(String(home.dropFirst(world.path.count + 1)) + "/.config/vdirsyncer/caldav-password", password + "\n")
    }

    /// `vdirsyncer -c CONFIG ARGUMENTS...`, answering its prompts with `answering`; throws
    /// with its output unless it exits 0.
    @discardableResult
    func run(_ arguments: [String], answering: String = "") throws -> ToolResult {
        let result = try Tool.run(executable, ["-c", config] + arguments,
                                  stdin: Data(String(repeating: answering, count: 20).utf8), environment: environment,
                                  timeout: 120, scratch: scratch)
        guard result.status == 0, !result.timedOut else {
            throw TestFailure("vdirsyncer \(arguments.joined(separator: " ")) failed: \(result)")
        }
        return result
    }
}
