import Foundation
import Glibc
import Testing

/// packaging/install.sh into a fake HOME and a staging root (--destdir), with the binary
/// under test (--binary; the release build it does without that flag is too slow for the
/// suite), so it runs as root in CI without touching the machine.
@Suite("install.sh")
struct SystemdInstallTests {
    static let script = Locations.packageRoot + "/packaging/install.sh"
    static let scdocPresent = Locations.tool("scdoc") != nil

    struct Sandbox {
        let directory: TemporaryDirectory
        let home: String
        var environment: [String: String]

        init() throws {
            directory = try TemporaryDirectory()
            home = try directory.makeDirectory("home")
            // No XDG_RUNTIME_DIR: systemctl --user finds no manager, as in CI.
            environment = Tool.baseEnvironment(home: home)
        }

        func install(_ arguments: [String]) throws -> ToolResult {
            try Tool.run(SystemdInstallTests.script, arguments, environment: environment, timeout: 60, scratch: directory)
        }

        func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }
    }

    static func lastLine(_ result: ToolResult) -> String {
        result.output.split(separator: "\n").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
    }

    static func execStart(_ path: String) throws -> String? {
        try UnitFile(path: path).value("ExecStart", in: "Service")
    }

    /// ExecReload='s program: the client `zaoan`, beside the zaoan-server ExecStart= runs.
    static func reloadProgram(_ path: String) throws -> String? {
        try UnitFile(path: path).value("ExecReload", in: "Service")?.split(separator: " ").first.map(String.init)
    }

    @Test("--user into a fresh HOME: binary, units, the notifier and vdirsyncer units, man pages, completions; the enable command last; --uninstall removes them")
    func userInstall() throws {
        let sandbox = try Sandbox()
        defer { sandbox.directory.remove() }
        let installed = try sandbox.install(["--user", "--binary", Locations.zaoan])
        try #require(installed.status == 0, "\(installed)")
        #expect(Self.lastLine(installed) == "systemctl --user enable --now zaoan.socket", "\(installed.output)")

        let home = sandbox.home
        let expected = [
            "\(home)/.local/bin/zaoan", "\(home)/.local/bin/zaoan-server", "\(home)/.config/systemd/user/zaoan.socket", "\(home)/.config/systemd/user/zaoan.service",
            "\(home)/.local/share/bash-completion/completions/zaoan", "\(home)/.local/share/zsh/site-functions/_zaoan",
            "\(home)/.local/bin/zaoan-notify", "\(home)/.config/systemd/user/zaoan-notify.service",
            "\(home)/.config/systemd/user/vdirsyncer-sync.service", "\(home)/.config/systemd/user/vdirsyncer-sync.timer",
        ] + (Self.scdocPresent ? ["\(home)/.local/share/man/man1/zaoan.1", "\(home)/.local/share/man/man5/zaoan.conf.5"] : [])
        for path in expected { #expect(sandbox.exists(path), "\(path) not installed") }
        #expect(FileManager.default.isExecutableFile(atPath: "\(home)/.local/bin/zaoan"))
        // The shipped unit as it is: it finds the binary through %h.
        #expect(try Self.execStart("\(home)/.config/systemd/user/zaoan.service") == "%h/.local/bin/zaoan-server serve --exit-idle-time 5min")
        #expect(try Self.reloadProgram("\(home)/.config/systemd/user/zaoan.service") == "%h/.local/bin/zaoan")
        // The notifier beside it, told which zaoan to run: the user manager's PATH has no ~/.local/bin.
        let notifier = try UnitFile(path: "\(home)/.config/systemd/user/zaoan-notify.service")
        #expect(notifier.value("ExecStart", in: "Service") == "%h/.local/bin/zaoan-notify")
        #expect(notifier.values("Environment", in: "Service") == ["ZAOAN=%h/.local/bin/zaoan"])
        #expect(FileManager.default.isExecutableFile(atPath: "\(home)/.local/bin/zaoan-notify"))
        #expect(installed.output.contains("systemctl --user enable --now zaoan-notify.service")
                && installed.output.contains("systemctl --user enable --now vdirsyncer-sync.timer"), "\(installed.output)")
        let version = try Tool.run("\(home)/.local/bin/zaoan", ["--version"], environment: sandbox.environment, scratch: sandbox.directory)
        #expect(version.status == 0 && version.output.hasPrefix("zaoan "), "\(version)")
        // The installed zaoan runs the installed zaoan-server.
        let check = try Tool.run("\(home)/.local/bin/zaoan", ["check-config"], environment: sandbox.environment, scratch: sandbox.directory)
        #expect(check.status == 0 && check.output.contains(": ok (city"), "\(check)")

        // The installed units verify clean against the installed binary.
        if let analyze = Locations.tool("systemd-analyze") {
            var environment = sandbox.environment
            environment["XDG_RUNTIME_DIR"] = try sandbox.directory.makeDirectory("run")
            let unitDirectory = "\(home)/.config/systemd/user"
            // vdirsyncer's ExecStart= names `vdirsyncer`, which verify looks for on the machine.
            let units = ["zaoan.socket", "zaoan.service", "zaoan-notify.service"]
                + (Locations.tool("vdirsyncer") != nil ? ["vdirsyncer-sync.service", "vdirsyncer-sync.timer"] : [])
            let verify = try Tool.run(analyze, ["--user", "verify", "--man=no"] + units.map { unitDirectory + "/" + $0 },
                                      environment: environment, timeout: 60, scratch: sandbox.directory)
            #expect(verify.status == 0 && verify.output.isEmpty && verify.errorOutput.isEmpty, "\(verify)")
        }

        let removed = try sandbox.install(["--user", "--uninstall"])
        #expect(removed.status == 0, "\(removed)")
        for path in expected { #expect(!sandbox.exists(path), "\(path) left behind by --uninstall") }
    }

    @Test("--user --prefix DIR: ExecStart= names DIR/bin/zaoan-server, ExecReload= DIR/bin/zaoan")
    func userPrefix() throws {
        let sandbox = try Sandbox()
        defer { sandbox.directory.remove() }
        let prefix = sandbox.directory.file("opt")
        let installed = try sandbox.install(["--user", "--prefix", prefix, "--binary", Locations.zaoan])
        try #require(installed.status == 0, "\(installed)")
        #expect(sandbox.exists(prefix + "/bin/zaoan"))
        #expect(try Self.execStart(sandbox.home + "/.config/systemd/user/zaoan.service") == "\(prefix)/bin/zaoan-server serve --exit-idle-time 5min")
        #expect(try Self.reloadProgram(sandbox.home + "/.config/systemd/user/zaoan.service") == "\(prefix)/bin/zaoan")
        let notifier = try UnitFile(path: sandbox.home + "/.config/systemd/user/zaoan-notify.service")
        #expect(notifier.value("ExecStart", in: "Service") == "\(prefix)/bin/zaoan-notify")
        #expect(notifier.values("Environment", in: "Service") == ["ZAOAN=\(prefix)/bin/zaoan"])
        #expect(installed.output.contains("add \(prefix)/bin to PATH"))
    }

    @Test("--system --destdir ROOT stages /usr/local and /etc/systemd/system; --prefix moves ExecStart=; --uninstall cleans up",
          arguments: [nil, "/opt/zaoan"])
    func systemInstall(prefix: String?) throws {
        let sandbox = try Sandbox()
        defer { sandbox.directory.remove() }
        let root = try sandbox.directory.makeDirectory("root", mode: 0o755)
        let options = ["--system", "--destdir", root] + (prefix.map { ["--prefix", $0] } ?? [])
        let installed = try sandbox.install(options + ["--binary", Locations.zaoan])
        try #require(installed.status == 0, "\(installed)")
        #expect(Self.lastLine(installed) == "systemctl enable --now zaoan.socket", "\(installed.output)")
        let base = prefix ?? "/usr/local"
        let expected = [
            "\(base)/bin/zaoan", "\(base)/bin/zaoan-server", "/etc/systemd/system/zaoan.socket", "/etc/systemd/system/zaoan.service",
            "\(base)/share/bash-completion/completions/zaoan", "\(base)/share/zsh/site-functions/_zaoan",
            "\(base)/bin/zaoan-notify", "/etc/systemd/user/zaoan-notify.service",
            "/etc/systemd/user/vdirsyncer-sync.service", "/etc/systemd/user/vdirsyncer-sync.timer",
        ] + (Self.scdocPresent ? ["\(base)/share/man/man1/zaoan.1", "\(base)/share/man/man5/zaoan.conf.5"] : [])
        for path in expected { #expect(sandbox.exists(root + path), "\(root + path) not installed") }
        // Paths inside the units are those of the real system, without the staging root.
        #expect(try Self.execStart(root + "/etc/systemd/system/zaoan.service") == "\(base)/bin/zaoan-server serve --exit-idle-time 5min")
        #expect(try Self.reloadProgram(root + "/etc/systemd/system/zaoan.service") == "\(base)/bin/zaoan")
        let socket = try UnitFile(path: root + "/etc/systemd/system/zaoan.socket")
        #expect(socket.value("ListenStream", in: "Socket") == "/run/zaoan/zaoan.sock")
        // Every user's notifier runs this zaoan against the system socket.
        let notifier = try UnitFile(path: root + "/etc/systemd/user/zaoan-notify.service")
        #expect(notifier.value("ExecStart", in: "Service") == "\(base)/bin/zaoan-notify")
        #expect(notifier.values("Environment", in: "Service") == ["ZAOAN=\(base)/bin/zaoan", "ZAOAN_SOCKET=/run/zaoan/zaoan.sock"])
        // Nothing escaped the staging root.
        #expect(!sandbox.exists(sandbox.home + "/.config/systemd"))

        let removed = try sandbox.install(options + ["--uninstall"])
        #expect(removed.status == 0, "\(removed)")
        for path in expected { #expect(!sandbox.exists(root + path), "\(root + path) left behind by --uninstall") }
    }

    @Test("bad arguments are refused with a message")
    func badArguments() throws {
        let sandbox = try Sandbox()
        defer { sandbox.directory.remove() }
        for arguments in [["--frobnicate"], ["--prefix", "relative/dir"], ["--binary", sandbox.directory.file("missing")]] {
            let result = try sandbox.install(arguments)
            #expect(result.status != 0 && result.errorOutput.contains("install.sh:"), "\(arguments): \(result)")
        }
        // A client without the zaoan-server beside it.
        let alone = try sandbox.directory.makeDirectory("alone") + "/zaoan"
        try FileManager.default.copyItem(atPath: Locations.zaoan, toPath: alone)
        let withoutServer = try sandbox.install(["--binary", alone])
        #expect(withoutServer.status != 0 && withoutServer.errorOutput.contains("no zaoan-server beside \(alone)"), "\(withoutServer)")
        let help = try sandbox.install(["--help"])
        #expect(help.status == 0 && help.output.contains("--uninstall"), "\(help)")
    }
}
