import Testing

@testable import movies

/// `--timeout SECONDS` read as a delay saturates, and never traps.
///
/// NaN is refused where it is typed; a negative delay is now; 100 years or more (infinity
/// included) is the longest delay a scheduler waits for, which never comes. Issue 19.
@Suite struct MoviesTimeoutTests {
  static let century = Duration.seconds(100 * 365 * 24 * 3600)

  @Test func secondsFromADoubleSaturate() {
    #expect(SourceOptions.saturating(seconds: .nan) == nil)
    #expect(SourceOptions.saturating(seconds: -.infinity) == .zero)
    #expect(SourceOptions.saturating(seconds: -1) == .zero)
    #expect(SourceOptions.saturating(seconds: 0) == .zero)
    #expect(SourceOptions.saturating(seconds: 1.5) == .milliseconds(1_500))
    #expect(SourceOptions.saturating(seconds: 1e10) == Self.century)
    #expect(SourceOptions.saturating(seconds: .infinity) == Self.century)
    #expect(SourceOptions.saturating(seconds: .greatestFiniteMagnitude) == Self.century)
  }
}
