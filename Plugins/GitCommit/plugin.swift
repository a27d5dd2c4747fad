import Foundation
import PackagePlugin

/// Writes `BuildCommit.swift` with the git commit the sources were built from, so
/// `zaoan --version` can say exactly what is running. Outside a git checkout (a release
/// tarball) it says "unknown".
@main
struct GitCommit: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildCommit.swift")
        let root = context.package.directoryURL.path
        let script = """
            commit=$(git -C '\(root)' rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
            if [ "$commit" != unknown ] && [ -n "$(git -C '\(root)' status --porcelain --untracked-files=no 2>/dev/null)" ]; then
                commit="$commit-modified"
            fi
            new="let buildCommit = \\"$commit\\""
            [ "$(cat '\(output.path)' 2>/dev/null)" = "$new" ] || printf '%s\\n' "$new" > '\(output.path)'
            """
        return [.prebuildCommand(displayName: "Recording the git commit for zaoan --version",
                                 executable: URL(fileURLWithPath: "/bin/sh"),
                                 arguments: ["-c", script],
                                 outputFilesDirectory: context.pluginWorkDirectoryURL)]
    }
}
