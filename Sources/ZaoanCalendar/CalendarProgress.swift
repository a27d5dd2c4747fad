import ZaoanRecurrence
import ZaoanSystem

/// Where a reading is, for a supervisor that must name what it had to stop: the service's
/// reader process reports each file and each series it starts, so when one libical call
/// runs past the budget and the process is ended, the problem names the file and the UID.
/// Set once, before reading, by the only thread that reads (the reader process's main
/// thread); nil everywhere else.
public enum CalendarProgress {
    /// A file is about to be read and parsed (its path, or its path in a folder); false
    /// leaves the file out unread (it ran past the budget at an earlier reading).
    public nonisolated(unsafe) static var fileStarting: ((String) -> Bool)?
    /// A series (an event with RRULE) of `source` is about to be expanded: its UID.
    public nonisolated(unsafe) static var seriesStarting: ((_ source: String, _ uid: String) -> Void)?
    /// A file about to be read is as it was when the caller last had it read: its number of
    /// events, and it is not read again (the caller keeps what it found then); nil reads it.
    public nonisolated(unsafe) static var unchangedFile: ((_ source: String, _ identity: FileIdentity) -> Int?)?
    /// A file was read (parsed, or refused for what it holds) as it was at `identity`.
    public nonisolated(unsafe) static var fileRead: ((_ source: String, _ identity: FileIdentity, _ events: Int) -> Void)?
}
