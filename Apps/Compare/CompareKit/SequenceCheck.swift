public import AppSupport

/// Whether each architecture went through the same states as the others.
///
/// ```swift
/// let verdicts = SequenceCheck.compare(
///   ["first page", "retry"],
///   [.store: [storeFirst, storeRetry], .reactor: [...], .feedback: [...]]
/// )
/// verdicts[.reactor]?.isIdentical  // true when the reactor matched every other architecture
/// ```
public enum SequenceCheck {
  /// One architecture's verdict.
  public struct Verdict: Sendable, Equatable, Codable {
    /// Whether its sequences equal every other architecture's, scenario by scenario.
    public var isIdentical: Bool
    /// Where it first differed, if it did.
    public var difference: String?

    /// Creates a verdict.
    public init(isIdentical: Bool, difference: String? = nil) {
      self.isIdentical = isIdentical
      self.difference = difference
    }
  }

  /// Compares the state sequences of each architecture, one per scenario in `scenarios`' order.
  ///
  /// An architecture is identical when, for every scenario, its sequence equals the sequence of
  /// every other architecture; otherwise its verdict says the first scenario and state where it
  /// differs from another one.
  public static func compare<State: Equatable>(
    _ scenarios: [String],
    _ sequences: [Architecture: [[State]]]
  ) -> [Architecture: Verdict] {
    var verdicts: [Architecture: Verdict] = [:]
    let architectures = Architecture.allCases.filter { sequences[$0] != nil }
    for architecture in architectures {
      let mine = sequences[architecture] ?? []
      verdicts[architecture] = Verdict(isIdentical: true)
      search: for other in architectures where other != architecture {
        let theirs = sequences[other] ?? []
        for index in 0..<max(mine.count, theirs.count) {
          let name = index < scenarios.count ? scenarios[index] : "scenario \(index + 1)"
          guard index < mine.count, index < theirs.count else {
            verdicts[architecture] = Verdict(
              isIdentical: false,
              difference: "\(name): ran on \(other) only on one side"
            )
            break search
          }
          if let difference = firstDifference(mine[index], theirs[index]) {
            verdicts[architecture] = Verdict(
              isIdentical: false,
              difference: "\(name): differs from \(other) \(difference)"
            )
            break search
          }
        }
      }
    }
    return verdicts
  }

  /// Where two sequences first differ, or nil when they are equal.
  static func firstDifference<State: Equatable>(_ left: [State], _ right: [State]) -> String? {
    for index in 0..<min(left.count, right.count) where left[index] != right[index] {
      return "at state \(index + 1)"
    }
    guard left.count == right.count else {
      return "in length (\(left.count) states against \(right.count))"
    }
    return nil
  }
}
