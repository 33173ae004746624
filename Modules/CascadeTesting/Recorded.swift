public import CascadeStreams
public import CustomDump

/// A value stamped with the virtual time it was seen at.
///
/// Tests mostly use recorded stream events, written with the static factories that mirror the
/// event cases:
///
/// ```swift
/// let expected: [Recorded<StreamEvent<Int, Never>>] = [
///   .next(.seconds(210), 1),
///   .completed(.seconds(220)),
/// ]
/// ```
///
/// In failure messages a recorded event prints the same way, as `.next(210.0 seconds, 1)`.
public struct Recorded<Value: Sendable>: Sendable {
  /// The virtual time, as the offset from the scheduler's origin.
  public var time: Duration
  /// The value.
  public var value: Value

  /// Records `value` at `time`.
  ///
  /// - Parameters:
  ///   - time: The virtual time, as the offset from the scheduler's origin.
  ///   - value: The value.
  public init(time: Duration, value: Value) {
    self.time = time
    self.value = value
  }
}

extension Recorded: Equatable where Value: Equatable {}

extension Recorded: Hashable where Value: Hashable {}

extension Recorded: CustomStringConvertible {
  /// The time and value, such as `2.0 seconds: next(1)`.
  public var description: String { "\(time): \(value)" }
}

extension Recorded {
  /// A recorded value event at `time`.
  ///
  /// - Parameters:
  ///   - time: The virtual time of the event.
  ///   - element: The value.
  /// - Returns: The recorded event.
  public static func next<Element, Failure>(_ time: Duration, _ element: Element) -> Self
  where Value == StreamEvent<Element, Failure> {
    Recorded(time: time, value: .next(element))
  }

  /// A recorded failure at `time`.
  ///
  /// - Parameters:
  ///   - time: The virtual time of the event.
  ///   - failure: The failure.
  /// - Returns: The recorded event.
  public static func error<Element, Failure>(_ time: Duration, _ failure: Failure) -> Self
  where Value == StreamEvent<Element, Failure> {
    Recorded(time: time, value: .error(failure))
  }

  /// A recorded completion at `time`.
  ///
  /// - Parameter time: The virtual time of the event.
  /// - Returns: The recorded event.
  public static func completed<Element, Failure>(_ time: Duration) -> Self
  where Value == StreamEvent<Element, Failure> {
    Recorded(time: time, value: .completed)
  }
}

extension Recorded: CustomDumpReflectable {
  /// How CustomDump prints a recorded value in diffs.
  ///
  /// A recorded event prints as its factory spells it, `.next(2.0 seconds, 1)`,
  /// `.error(3.0 seconds, TestError())` or `.completed(4.0 seconds)`; any other value as
  /// `Recorded(time: 2.0 seconds, value: …)`.
  public var customDumpMirror: Mirror {
    let time = DumpedDuration(time)
    guard let event = value as? any RecordableEvent else {
      return Mirror(self, children: ["time": time, "value": value], displayStyle: .struct)
    }
    let (name, payload) = event.dumpedCase
    let associated: Any = payload.map { (time, $0) } ?? time
    return Mirror(self, children: [name: associated], displayStyle: .enum)
  }
}

/// A stream event, seen by ``Recorded``'s dump.
protocol RecordableEvent {
  /// The case name and its payload, if any.
  var dumpedCase: (name: String, payload: Any?) { get }
}

extension StreamEvent: RecordableEvent {
  var dumpedCase: (name: String, payload: Any?) {
    switch self {
    case .next(let element): ("next", element)
    case .error(let failure): ("error", failure)
    case .completed: ("completed", nil)
    }
  }
}

/// A duration that CustomDump prints as `1.5 seconds` (CustomDump formats `Duration` only on
/// Apple platforms).
struct DumpedDuration: CustomDumpStringConvertible {
  let duration: Duration

  init(_ duration: Duration) {
    self.duration = duration
  }

  var customDumpDescription: String { "\(duration)" }
}
