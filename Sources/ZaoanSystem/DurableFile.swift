import Glibc

/// The one durable write: a file that appears whole or not at all, and stays after a power
/// loss once its folder is synced. `state.json` (StateStore) and `event add`'s `UID.ics`
/// (CalendarWriter) are written this way.
///
/// The bytes go to a new file under a name the caller makes unpredictable, created with
/// `O_CREAT|O_EXCL|O_NOFOLLOW` (a link or file planted there is refused, never followed),
/// are synced, and the file is renamed over `name`; then the folder is synced. **The rename
/// is the commit point**: a failure before it removes the temporary file and leaves `name`
/// as it was; after it, `name` holds the new bytes even if the folder's sync fails, which is
/// returned, not thrown (a power loss in the next seconds could still undo the rename).
public enum DurableFile {
    /// Writes `bytes` as `name` in the open folder `folder` (its path `path`, for messages).
    /// - Returns: nil when the folder was synced; the sync's error when the file is in place
    ///   but the folder could not be synced.
    /// - Throws: when `name` was not replaced; nothing is left behind.
    public static func replace(_ name: String, in folder: borrowing Descriptor, path: String, temporaryName: String,
                               mode: mode_t = 0o600, with bytes: [UInt8]) throws(SystemError) -> SystemError? {
        let directory = folder.rawValue
        let file = try Descriptor.open(temporaryName, in: directory, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: mode,
                                       "creating \(path)/\(temporaryName)")
        do throws(SystemError) {
            try file.writeAll(bytes, "writing \(path)/\(temporaryName)")
            _ = try syscall("writing \(path)/\(temporaryName)") { fsync(file.rawValue) }  // 0 on success; errors throw
            file.close()
            _ = try syscall("renaming \(path)/\(temporaryName) to \(name)") { renameat(directory, temporaryName, directory, name) }  // 0 on success
        } catch {
            unlinkat(directory, temporaryName, 0)  // `name` is untouched; the leftover would only be clutter
            throw error
        }
        do throws(SystemError) {
            _ = try syscall("syncing \(path)") { fsync(directory) }  // 0 on success; errors throw
            return nil
        } catch {
            return error
        }
    }
}
