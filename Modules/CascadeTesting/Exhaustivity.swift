/// How strictly a ``TestStore`` checks the test (AT-33).
///
/// ```swift
/// store.exhaustivity = .off  // assert only what matters to this test
/// store.exhaustivity = .off(showSkippedAssertions: true)  // … and say what was skipped
/// ```
public enum Exhaustivity: Sendable, Hashable {
  /// Every state change and every received action must be asserted, and no command may still be
  /// running at the end. The default.
  case on

  /// Only what the test asserts is checked: a state assertion checks the fields its closure
  /// sets, `receive` skips the actions before the one it asserts, and unasserted changes,
  /// unasserted received actions and commands still running at the end are not failures.
  ///
  /// An assertion that is wrong still fails: a field set to a value it does not have, an action
  /// that never arrives, an assertion closure that throws. Skipped assertions are listed in
  /// ``TestStore/skippedAssertions``; with `showSkippedAssertions`, each is also reported as a
  /// warning, which does not fail the test.
  case off(showSkippedAssertions: Bool)

  /// Non-exhaustive, without reporting skipped assertions.
  public static var off: Exhaustivity { .off(showSkippedAssertions: false) }
}
