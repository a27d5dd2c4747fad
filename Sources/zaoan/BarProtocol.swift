import Glibc
import ZaoanCommandLine
import ZaoanProtocol
import ZaoanSystem
import ZaoanText

/// The i3bar protocol as `zaoan bar` speaks it (https://i3wm.org/docs/i3bar-protocol.html):
/// a header, then an endless JSON array with one array of blocks per line; click events
/// come back on stdin as an endless array of objects, one per line.
enum BarProtocol {
    /// SIGURG pauses the output (the bar is hidden), SIGCONT resumes it. i3bar and swaybar
    /// run the status command through `sh -c` and send these signals to its whole process
    /// group, so the shell (which does not exec a lone command with dash) gets them too:
    /// SIGUSR1 would kill it, and the bar would report the command gone (i3 issue #1741).
    /// A shell's default for SIGURG is to ignore it and for SIGCONT to go on, so any
    /// `status_command` line, with `exec` or without, survives hiding the bar.
    static let stopSignal = SIGURG
    static let continueSignal = SIGCONT

    static var header: String {
        #"{"version":1,"click_events":true,"stop_signal":\#(stopSignal),"cont_signal":\#(continueSignal)}"#
    }

    /// One status line: the blocks as a JSON array, then the comma of the endless array.
    /// (`[...],` on each line, as the service writes into a handed-over pipe: no line has to
    /// know whether it is the first.)
    static func statusLine(_ blocks: [String]) -> String {
        "[" + blocks.joined(separator: ",") + "],"
    }

    /// The service's answer when it takes the bar's pipe.
    static let handedOverAnswer = Request.barOutputTaken

    /// A block from the service (`--format=i3bar`, parsed by `I3barBlock`: only the fields
    /// zaoan writes, `markup` as zaoan's config says, the text made safe for it), renamed so a
    /// click can be routed back: `name` is "zaoan" and `instance` is `instance` (what the
    /// service names it too).
    static func renamed(_ parsed: I3barBlock, instance: String, pango: Bool) -> String {
        var block = parsed
        block.instance = instance
        return block.encoded
    }

    /// A block zaoan writes itself: the service is down, or refused the block's request.
    static func messageBlock(_ text: String, instance: String) -> String {
        StatusLine.i3barBlock(instance: instance, fullText: text, shortText: "zaoan ⚠")
    }

    /// A click, as far as `zaoan bar` cares.
    struct Click: Equatable {
        var name: String?
        var instance: String?
        var button: Int?
    }

    /// Reads one line of the click stream: `[`, `{...}` or `,{...}`. Returns nil for the
    /// opening bracket, blank lines and anything that is not a click object.
    static func click(fromLine line: String) -> Click? {
        var text = Substring(line)
        while let first = text.first, first == "[" || first == "," || first == " " || first == "\t" || first == "\r" {
            text = text.dropFirst()
        }
        while let last = text.last, last == "," || last == " " || last == "\t" || last == "\r" {
            text = text.dropLast()
        }
        guard text.first == "{", let click = JSONReader.line(String(text)), click.members != nil else { return nil }
        return Click(name: click["name"]?.string, instance: click["instance"]?.string, button: click["button"]?.integer)
    }
}

extension BarConfig {
    /// Reads the bar's keys from the config file the service reads (or `path`), checked by
    /// the rule the service checks them with (`BarConfig.checking`), so the bar and `zaoan
    /// check-config` agree on what is wrong. Read like the service reads it (`RegularFile`:
    /// at most 1 MiB, a regular file only, never blocking on a FIFO), with no Foundation.
    static func load(path explicit: String?, environment: [String: String]) throws(ConfigError) -> BarConfig {
        let path = explicit ?? ConfigPath.defaultPath(environment: environment)
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, limit: ConfigPath.maxBytes)
        } catch {
            if case .missing = error, explicit == nil { return BarConfig() }
            throw ConfigError(key: nil, problem: ConfigPath.problem(error, path: path))
        }
        let read: (config: BarConfig, problems: [ConfigError])
        do {
            read = try BarConfig.read(bytes)
        } catch {
            throw error.inFile(path)
        }
        // A bad value costs only itself: the bar runs with the rest and says what it set aside
        // (i3 and sway log a status command's errors; `zaoan check-config` shows them too).
        for problem in read.problems { printError("warning: \(problem.inFile(path).report)") }
        return read.config
    }
}
