public import CascadeStreams

/// A value stamped with the virtual time it was seen at.
public struct Recorded<Value: Sendable>: Sendable {
  /// The virtual time, as the offset from the scheduler's origin.
  public var time: Duration
  /// The value.
  public var value: Value

  /// Records `value` at `time`.
  public init(time: Duration, value: Value) {
    self.time = time
    self.value = value
  }
}

extension Recorded: Equatable where Value: Equatable {}

extension Recorded: CustomStringConvertible {
  /// The time and value, such as `2.0 seconds: next(1)`.
  public var description: String { "\(time): \(value)" }
}

extension Recorded {
  /// A recorded value event at `time`.
  public static func next<Element, Failure>(_ time: Duration, _ element: Element) -> Self
  where Value == Event<Element, Failure> {
    Recorded(time: time, value: .next(element))
  }

  /// A recorded failure at `time`.
  public static func error<Element, Failure>(_ time: Duration, _ failure: Failure) -> Self
  where Value == Event<Element, Failure> {
    Recorded(time: time, value: .error(failure))
  }

  /// A recorded completion at `time`.
  public static func completed<Element, Failure>(_ time: Duration) -> Self
  where Value == Event<Element, Failure> {
    Recorded(time: time, value: .completed)
  }
}
