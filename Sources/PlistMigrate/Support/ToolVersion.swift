/// The tool's version: what `--version` prints and SARIF reports. A test keeps it equal to the
/// newest released version in CHANGELOG.md, so the two cannot drift apart.
public enum ToolVersion {
    public static let current = "0.2.0"
}
