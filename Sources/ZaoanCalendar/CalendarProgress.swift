/// Where a reading is, for a supervisor that must name what it had to stop: the service's
/// reader process reports each file and each series it starts, so when one libical call
/// runs past the budget and the process is ended, the problem names the file and the UID.
/// Set once, before reading, by the only thread that reads (the reader process's main
/// thread); nil everywhere else.
public enum CalendarProgress {
    /// A file's text is about to be parsed (its path, or its path in a folder); false
    /// leaves the file out unread (it ran past the budget at an earlier reading).
    public nonisolated(unsafe) static var fileStarting: ((String) -> Bool)?
    /// A series (an event with RRULE) of `source` is about to be expanded: its UID.
    public nonisolated(unsafe) static var seriesStarting: ((_ source: String, _ uid: String) -> Void)?
}
