/// zaoan's version, reported by `version` and `zaoan --version`.
public enum Version {
    public static let number = "0.1.0"

    /// `zaoan 0.1.0 (commit 1a2b3c4d5e6f)`.
    public static func describe(commit: String?) -> String {
        guard let commit, !commit.isEmpty else { return "zaoan \(number)" }
        return "zaoan \(number) (commit \(commit))"
    }
}
