import Synchronization

/// A value that counts how many of its kind are alive: for tests that prove a buffer releases
/// what it no longer needs.
///
/// ```swift
/// let live = LiveCount()
/// subject.onNext(Tracked(1, in: live))
/// #expect(live.value == 0)
/// ```
public final class Tracked: Sendable, Equatable, CustomStringConvertible {
  /// The value's number, to tell values apart.
  public let number: Int
  private let live: LiveCount

  /// A value numbered `number`, counted in `live` until it is deinitialized.
  public init(_ number: Int, in live: LiveCount) {
    self.number = number
    self.live = live
    live.count.add(1, ordering: .relaxed)
  }

  deinit {
    live.count.subtract(1, ordering: .relaxed)
  }

  /// Whether the two have the same number.
  public static func == (lhs: Tracked, rhs: Tracked) -> Bool { lhs.number == rhs.number }

  /// `Tracked(number)`.
  public var description: String { "Tracked(\(number))" }
}

/// How many ``Tracked`` values made with it are alive.
public final class LiveCount: Sendable {
  let count = Atomic<Int>(0)

  /// A count of none.
  public init() {}

  /// The number alive now.
  public var value: Int { count.load(ordering: .relaxed) }
}
