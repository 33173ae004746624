/// The version of Cascade's libraries: the one place it is written.
///
/// Every product of the package shares it (all of them build on CascadeStreams), the sample
/// apps print it with `--version`, and `Tooling/api-check.sh` compares it with the newest
/// release in `CHANGELOG.md`. Quote it in a bug report:
///
/// ```swift
/// import CascadeStreams
///
/// print("Cascade", CascadeVersion.current)  // Cascade 0.20.0
/// ```
public enum CascadeVersion {
  /// The version string, `MAJOR.MINOR.PATCH` (semantic versioning).
  public static let current = "0.20.0"
}
