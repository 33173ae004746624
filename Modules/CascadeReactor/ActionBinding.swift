/// A get/set binding from a part of a reactor's state to an action: SwiftReactor's
/// `ActionBinding`, without SwiftUI.
///
/// Reading gives the current state's value; writing sends the action built from the new value,
/// whose synchronous mutation updates the state at once.
///
/// ```swift
/// let name = ActionBinding(reactor, keyPath: \.name, action: { .nameChanged($0) })
/// name.wrappedValue = "Ada"   // sends .nameChanged("Ada")
/// name.wrappedValue           // "Ada"
/// ```
public struct ActionBinding<R: Reactor, Value: Sendable>: Sendable {
  private let reactor: R
  private let keyPath: any KeyPath<R.State, Value> & Sendable
  private let action: @Sendable (Value) -> R.Action

  /// Binds `keyPath` of the state of `reactor` to `action`.
  public init(
    _ reactor: R,
    keyPath: any KeyPath<R.State, Value> & Sendable,
    action: @escaping @Sendable (Value) -> R.Action
  ) {
    self.reactor = reactor
    self.keyPath = keyPath
    self.action = action
  }

  /// The value in the current state; setting it sends the action.
  public var wrappedValue: Value {
    get { reactor.currentState[keyPath: keyPath] }
    nonmutating set { reactor.send(action(newValue)) }
  }
}
