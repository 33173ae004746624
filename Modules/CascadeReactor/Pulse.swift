/// A state property whose stream emits on every assignment, even of an equal value:
/// ReactorKit's `Pulse`.
///
/// Use it for one-off signals such as an alert message: assigning the same message twice shows
/// the alert twice, and changing another part of the state does not show it again.
///
/// ```swift
/// struct State: Sendable {
///   @Pulse var alertMessage: String?
/// }
///
/// reactor.pulse(\.$alertMessage).compactMap { $0 }.subscribe(onNext: { showAlert($0) })
/// ```
@propertyWrapper
public struct Pulse<Value: Sendable>: Sendable {
  /// The value.
  public var value: Value {
    didSet { valueUpdatedCount &+= 1 }
  }

  /// How many times the value was assigned.
  public internal(set) var valueUpdatedCount: UInt = 0

  /// Creates a pulse holding `wrappedValue`.
  public init(wrappedValue: Value) {
    value = wrappedValue
  }

  /// The value; assigning counts as an update, even when equal.
  public var wrappedValue: Value {
    get { value }
    set { value = newValue }
  }

  /// The pulse itself, for ``Reactor/pulse(_:)``: `\.$alertMessage`.
  public var projectedValue: Pulse<Value> {
    get { self }
    set { self = newValue }
  }
}

extension Pulse: Equatable where Value: Equatable {}
