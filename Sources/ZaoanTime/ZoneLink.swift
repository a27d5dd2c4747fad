/// The machine's zone as `/etc/localtime` names it: a symbolic link into the zoneinfo
/// directory, whose path below it is the zone's name (`/usr/share/zoneinfo/Asia/Tokyo` is
/// `Asia/Tokyo`). Read from the link itself, as systemd's `get_timezone` and `timedatectl`
/// do, never from a library's idea of the current zone (Foundation keeps the first one it
/// finds for the life of the process).
public enum ZoneLink {
    /// The link, and the folder it is in (watched for the link being replaced).
    public static let path = "/etc/localtime"
    public static let folder = "/etc"
    public static let name = "localtime"

    /// The zone a link target names: the target, relative to `folder` unless absolute,
    /// with `.` and `..` parts resolved, must lie below `zoneinfo` and the rest must be a
    /// zone name (`ZoneName`). `posix/Asia/Tokyo` is `Asia/Tokyo` (the same rules); nil for
    /// anything else.
    public static func zoneName(target: String, folder: String = ZoneLink.folder,
                                zoneinfo: String = "/usr/share/zoneinfo") -> String? {
        guard !target.isEmpty else { return nil }
        let path = target.hasPrefix("/") ? target : folder + "/" + target
        let parts = normalized(path)
        let root = normalized(zoneinfo)
        guard parts.count > root.count, Array(parts.prefix(root.count)) == root else { return nil }
        var zone = Array(parts.dropFirst(root.count))
        if zone.count > 1, zone[0] == "posix" { zone.removeFirst() }
        let name = zone.joined(separator: "/")
        return ZoneName.isValid(name) ? name : nil
    }

    /// An absolute path's parts, with empty and `.` parts dropped and each `..` taking the
    /// part before it away (none above the root).
    static func normalized(_ path: String) -> [String] {
        var parts: [String] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(String(part))
            }
        }
        return parts
    }
}
