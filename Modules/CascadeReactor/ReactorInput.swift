/// What a reactor's store processes: the actions sent to it, and the mutations they produce.
///
/// Middlewares attached to a reactor see actions and mutations separately (see
/// ``Reactor/middlewares``); this type only shows in diagnostics.
public enum ReactorInput<Action: Sendable, Mutation: Sendable>: Sendable {
  /// An action, before `mutate(action:)`.
  case action(Action)
  /// A mutation, with the action whose `mutate(action:)` produced it (`nil` for a mutation that
  /// came from a stream merged in `transform(mutation:)`).
  case mutation(Mutation, cause: Action?)
}
