import Glibc
import ZaoanSystem

/// Where a client connects: `--socket PATH`, else the default (`SocketPath.resolve`). When
/// the default is the private fallback `/tmp/zaoan-<uid>/`, the client checks it as `serve`
/// does — a directory of the user's own that no one else can enter — since another user
/// could have made it first and put a server of theirs in it.
public enum ServiceSocket {
    public static func locate(explicit: String?, environment: [String: String]) throws(ClientError) -> String {
        if let explicit, explicit.isEmpty { throw .badArgument("--socket needs a path") }
        let resolved = SocketPath.resolve(explicit: explicit, environment: environment)
        if let directory = resolved.privateDirectory {
            do {
                try SocketPath.checkPrivateDirectory(directory)
            } catch where error.errno == ENOENT {
                throw .unreachable(path: resolved.path, reason: "no socket there")
            } catch {
                throw .unsafeDirectory(path: resolved.path, reason: error.description)
            }
        }
        return resolved.path
    }
}
