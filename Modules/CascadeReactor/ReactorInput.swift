/// What a reactor's store processes: the actions sent to it, and the mutations they produce.
///
/// Middlewares attached to a reactor see actions and mutations separately (see
/// ``Reactor/middlewares``); this type only shows in diagnostics,
/// as its ``description``.
public enum ReactorInput<Action: Sendable, Mutation: Sendable>: Sendable, CustomStringConvertible {
  /// An action, before `mutate(action:)`.
  case action(Action)
  /// A mutation, with the action whose `mutate(action:)` produced it (`nil` for a mutation that
  /// came from a stream merged in `transform(mutation:)`).
  case mutation(Mutation, cause: Action?)

  /// `action attack`, `mutation hit(3) of action attack`, or `mutation tick` for a mutation
  /// from a stream merged in `transform(mutation:)`.
  public var description: String {
    switch self {
    case .action(let action): "action \(action)"
    case .mutation(let mutation, let cause?): "mutation \(mutation) of action \(cause)"
    case .mutation(let mutation, nil): "mutation \(mutation)"
    }
  }
}
