/// zaoan's version, reported by `version` and `zaoan --version`.
public enum Version {
    public static let number = "0.1.0"
}
