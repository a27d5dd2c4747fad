import Glibc
import ZaoanCommandLine
import ZaoanProtocol
import ZaoanSystem

/// `zaoan click [--config FILE] BLOCK BUTTON`: a click on a bar module that runs a command
/// per click (waybar's `on-click`), done as `zaoan bar` does its own: the action
/// `bar_clicks` gives BUTTON on BLOCK (zaoan's default where it says nothing). A command is
/// run from here (`DetachedCommand`) and not waited for. A built-in action changes what a
/// `zaoan watch` shows, so it goes to the user's running watches of BLOCK through the click
/// channel (`ClickChannel`): a step (`next`, `next-format`, ...) to every one of them, so
/// two bars showing the ticker stay in step; `open-link` and `join` to one only, so one click opens
/// one browser tab.
///
/// Exit status: 0 once the action is taken (or is `none`), 1 when no watch of BLOCK runs
/// for this user or the command cannot be started, 64 for bad arguments, 78 for a bad
/// config.
struct ClickCommand {
    let options: ClickOptions
    let environment: [String: String]

    func run() -> Never {
        signal(SIGPIPE, SIG_IGN)  // a watch that exits as we write: EPIPE, said, not a kill
        let config: BarConfig
        do {
            config = try BarConfig.load(path: options.config, environment: environment)
        } catch {
            fail(error.description, status: 78)  // EX_CONFIG
        }
        let action = config.clicks.action(block: options.block, button: options.button)
        switch action {
        case .none:
            exit(0)
        case .command(let argv):
            let started = DetachedCommand.spawn(argv, for: "\(ConfigKey.barClicks.name) (\(options.block), \(options.button.rawValue))")
            exit(started ? 0 : 1)
        default:
            guard let word = action.word else { exit(0) }
            deliver(word, toOneOnly: action.opensLink)
        }
    }

    /// Writes `word` into the FIFOs of the block's watches; removes those left behind.
    private func deliver(_ word: String, toOneOnly: Bool) -> Never {
        guard let path = ClickChannel.folderPath(environment: environment) else {
            fail("no zaoan watch can be reached: \(ClickChannel.noFolder)", status: 1)
        }
        let folder: Descriptor
        do {
            folder = try ClickChannel.openFolder(path, create: false)
        } catch where error.errno == ENOENT {
            fail(noWatch(in: path), status: 1)
        } catch {
            fail(error.description, status: 1)
        }
        var reached = 0
        for name in names(in: folder, path: path) where ClickChannel.isName(name, of: options.block) {
            if send(word, to: name, in: folder, path: path) {
                reached += 1
                if toOneOnly { break }
            }
        }
        if reached == 0 { fail(noWatch(in: path), status: 1) }
        exit(0)
    }

    private func noWatch(in path: String) -> String {
        "no zaoan watch of \(options.block) is running for you (none has a click FIFO in \(path)); "
            + "a waybar module's exec must be zaoan watch ... \(options.block) ..."
    }

    /// The folder's entries, sorted (so `open-link` goes to the same watch each time).
    private func names(in folder: borrowing Descriptor, path: String) -> [String] {
        do throws(SystemError) {
            // A folder of one user's watches: a few entries. More than this many is not a
            // click folder zaoan keeps, and is not read further.
            return try folder.entryNames(limit: 4096, "listing the click folder \(path)").sorted()
        } catch {
            printError("cannot list the click folder \(path): \(String(cString: strerror(error.errno)))")
            return []
        }
    }

    /// Writes `word` into the FIFO `name` if a watch holds it open; removes it if none does.
    private func send(_ word: String, to name: String, in folder: borrowing Descriptor, path: String) -> Bool {
        var named = stat()
        guard fstatat(folder.rawValue, name, &named, AT_SYMLINK_NOFOLLOW) == 0, ClickChannel.isOwnFIFO(named) else {
            printError("skipping \(path)/\(name): not a FIFO of yours")
            return false
        }
        do {
            let fifo = try Descriptor.open(name, in: folder.rawValue, O_WRONLY | O_NONBLOCK | O_NOFOLLOW, "opening \(path)/\(name)")
            return write(word, into: fifo, checked: named, path: path + "/" + name)
        } catch where error.errno == ENXIO {
            // Nobody reads it: its watch was killed before it could remove it.
            unlinkat(folder.rawValue, name, 0)  // gone already: someone else cleaned up
            return false
        } catch {
            printError(error.description)
            return false
        }
    }

    /// Writes the word's line into the open FIFO, if it is still the file `checked` was.
    private func write(_ word: String, into fifo: borrowing Descriptor, checked named: stat, path: String) -> Bool {
        // The file opened is the one checked, not one put in its place since.
        guard let opened = try? fifo.status("checking \(path)"),  // unreadable status: not trusted, skipped
              ClickChannel.isOwnFIFO(opened), opened.st_dev == named.st_dev, opened.st_ino == named.st_ino else {
            printError("skipping \(path): it changed while it was opened")
            return false
        }
        // One line, far below PIPE_BUF: written whole or not at all.
        let line = Array((word + "\n").utf8)
        let written: IOResult<Int>
        do {
            let fd = fifo.rawValue
            written = try line.withUnsafeBytes { (bytes) throws(SystemError) in try Posix.write(fd, bytes, "writing to \(path)") }
        } catch {
            printError("\(error)")  // EPIPE: its watch exited just now
            return false
        }
        guard case .value(let count) = written, count == line.count else {
            printError("\(path): its watch has not read the clicks before these; skipped")
            return false
        }
        return true
    }
}

/// What `zaoan click` was asked.
struct ClickOptions: Equatable {
    var config: String?
    /// The block's request word (`ticker`, `live list`).
    var block: String
    var button: ClickButton
}
