#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The purity check: in debug and test builds, on request, each input is reduced twice, from
/// copies of the same state, and a reducer that gives two different states is reported.
///
/// A reducer must be a function of the state and the input alone. One that reads the clock,
/// draws a random number, or reads or changes global state reduces the same input to a
/// different state each time it runs, so a recording of the app no longer replays to the states
/// it recorded, and a test of it passes or fails by chance. The check finds such a reducer at the
/// first input that shows it, and reports ``StoreDiagnostic/impureReducer(input:difference:)``
/// through the store's diagnostics (under Swift Testing or XCTest, by default, a test failure):
///
/// ```
/// The reducer is not pure: reducing tick twice from the same state gave two different states
/// - startedAt: 1764640812.25
/// + startedAt: 1764640812.2501
/// ```
///
/// It covers every reduction of the three architectures: a ``Store``'s reducer, a reactor's
/// `reduce` and a feedback loop's reducer (a reactor's `mutate` and a feedback's effects are
/// where side effects belong, and are not run twice).
///
/// **Turning it on.** It is off unless asked for, and compiled out of release builds. A store
/// checks its reductions if, when it is created,
/// - the current task is inside `withEnabled(_:operation:)` (in tests, the trait
///   `.checksPurity` of CascadeTesting does this for each test), or
/// - the environment variable `CASCADE_PURITY_CHECK` is `1` (the samples' test suites run with
///   it, so that a reducer of theirs that is not pure fails CI).
///
/// ```swift
/// try await PurityCheck.withEnabled {
///   let store = Store(initialState: Clock.State()) { state, action in … }
///   store.send(.tick)  // Reported if `reduce` read the clock.
/// }
/// ```
///
/// **How states are compared.** With `==` when the state is `Equatable`; otherwise by their
/// dumps (`dump(_:to:)`, which follows classes into their contents). An `Equatable` state that is
/// not equal to itself but dumps the same (a `Double.nan` in it) is not reported. The report
/// gives the lines of the two dumps that differ.
///
/// **Cost.** Twice the reductions, a copy of the state per input (its storage is copied when the
/// reducer writes to it), and a comparison: a check for tests, not for a shipping app. A reducer
/// that changes global state changes it twice while the check is on.
public enum PurityCheck {
  /// Whether a store created here checks its reductions.
  ///
  /// Inside `withEnabled(_:operation:)`, as it says; elsewhere, whether
  /// `CASCADE_PURITY_CHECK=1` is set. Always `false` in release builds.
  public static var isEnabled: Bool {
    #if DEBUG
    scoped ?? environment
    #else
    false
    #endif
  }

  /// Runs `operation` with the check turned on (or off), for the stores it creates on the
  /// current task and its child tasks.
  ///
  /// - Parameters:
  ///   - enabled: Whether stores created inside check their reductions.
  ///   - operation: The code whose stores are checked.
  /// - Returns: What `operation` returns.
  public static func withEnabled<R>(
    _ enabled: Bool = true,
    operation: () throws -> R
  ) rethrows -> R {
    try $scoped.withValue(enabled, operation: operation)
  }

  /// Runs `operation` with the check turned on (or off), for the stores it creates on the
  /// current task and its child tasks.
  ///
  /// - Parameters:
  ///   - enabled: Whether stores created inside check their reductions.
  ///   - isolation: The actor `operation` runs on; the caller's by default.
  ///   - operation: The code whose stores are checked.
  /// - Returns: What `operation` returns.
  public static func withEnabled<R>(
    _ enabled: Bool = true,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> R
  ) async rethrows -> R {
    try await $scoped.withValue(enabled, operation: operation, isolation: isolation)
  }

  @TaskLocal static var scoped: Bool?

  /// `CASCADE_PURITY_CHECK=1`, read once.
  static let environment: Bool = {
    guard let value = getenv("CASCADE_PURITY_CHECK") else { return false }
    return String(cString: value) == "1"
  }()

  /// Whether `first` and `second`, two reductions of one input from one state, are the same
  /// state; if they are not, the lines of their dumps that differ.
  static func difference<State>(_ first: State, _ second: State) -> String? {
    if let first = first as? any Equatable, isEqual(first, second) { return nil }
    var firstDump = ""
    var secondDump = ""
    dump(first, to: &firstDump)
    dump(second, to: &secondDump)
    if firstDump == secondDump {
      // Equatable and not equal to itself, or not Equatable at all: the same dump is the same
      // state (a `Double.nan` is not equal to itself).
      return nil
    }
    return lineDifference(firstDump, secondDump)
  }

  private static func isEqual<Value: Equatable>(_ first: Value, _ other: Any) -> Bool {
    guard let other = other as? Value else { return false }
    return first == other
  }

  /// The lines of `first` and `second` between their common first and last lines, as
  /// `- line` and `+ line`, at most `limit` of each.
  static func lineDifference(_ first: String, _ second: String, limit: Int = 8) -> String {
    let old = first.split(separator: "\n", omittingEmptySubsequences: false)
    let new = second.split(separator: "\n", omittingEmptySubsequences: false)
    var prefix = 0
    while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < old.count - prefix, suffix < new.count - prefix,
      old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
    {
      suffix += 1
    }
    func lines(_ side: [Substring], _ mark: String) -> [String] {
      let changed = side[prefix..<(side.count - suffix)]
      var out = changed.prefix(limit).map { "\(mark) \($0.withoutDumpMarker)" }
      if changed.count > limit { out.append("\(mark) … \(changed.count - limit) more lines") }
      return out
    }
    return (lines(old, "-") + lines(new, "+")).joined(separator: "\n")
  }
}

extension Substring {
  /// A line of `dump`'s output without its indentation and its `- `, `▿ ` or `▹ ` marker.
  fileprivate var withoutDumpMarker: Substring {
    let line = drop { $0 == " " }
    for marker in ["- ", "▿ ", "▹ "] where line.hasPrefix(marker) {
      return line.dropFirst(marker.count)
    }
    return line
  }
}
