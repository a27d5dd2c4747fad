import Glibc
import ZaoanCommandLine
import ZaoanSystem

/// Runs a command for a click — `bar_url_opener` with an event's URL, a `bar_clicks`
/// command — the way neither the bar nor its pipe notices: spawned directly from its argv
/// (PATH searched for a bare name), never through a shell; stdin and stdout on /dev/null
/// (stdout may be the bar's pipe); in a session of its own, so the signals a bar sends its
/// status command's process group (SIGURG and SIGCONT when hidden and shown, SIGTERM when
/// it goes) never reach it; with no signal blocked or ignored that the clients block or
/// ignore for themselves (the signalfd's signals, SIGPIPE, SIGCHLD), since both would
/// otherwise pass through exec; and never waited for: SIGCHLD ignored, the kernel reaps it.
/// stderr stays the caller's (i3's or waybar's log), where a command that fails says why.
enum DetachedCommand {
    /// Spawns `argv`; `purpose` names the config key in the error when it cannot run.
    /// Returns whether it was started.
    @discardableResult
    static func spawn(_ argv: [String], for purpose: String) -> Bool {
        guard let name = argv.first else { return false }
        signal(SIGCHLD, SIG_IGN)  // no zombies, no waiting
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigfillset(&defaults)  // every signal the child could have been left ignoring starts at its default
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | DetachedCommand.newSession))

        var arguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, name, &actions, &attributes, &arguments, environ)
        if status != 0 {
            printError("cannot run \(name) (\(purpose)): \(String(cString: strerror(status)))")
        }
        return status == 0
    }

    /// glibc's POSIX_SPAWN_SETSID (setsid(2) in the child, since glibc 2.26).
    private static let newSession: Int32 = 0x80
}
