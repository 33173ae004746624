public import CascadeStreams

/// What a reactor's `mutate(action:)` may return: ``Mutations`` (the default), or an
/// `Observable` of mutations, as ReactorKit's `mutate` returns.
///
/// ```swift
/// // Cascade's form: synchronous mutations are applied before `send` returns, with no stream.
/// func mutate(action: Action) -> Mutations<Mutation> { .just(.increaseValue) }
///
/// // ReactorKit's form: the stream is subscribed when the action is processed.
/// func mutate(action: Action) -> Observable<Mutation, Never> { .just(.increaseValue) }
/// ```
///
/// **Cost.** An `Observable` made of plain values — `.just(m)`, `.empty()`, `.of(…)`, `.from` an
/// array, and a `concat` of such — is not subscribed: its mutations are applied at once, as
/// synchronous ``Mutations`` are, and the only cost is the stream itself (`.just` allocates one
/// object; W1: 1 allocation and about 1.8× the instructions of `Mutations` per action). Any
/// other stream is subscribed per action (a subscription, its disposable, and the reactor's
/// bookkeeping of work in flight), where `Mutations` holding one synchronous mutation costs no
/// allocation at all. A mutation that a stream emits on subscription is applied before `send`
/// returns, at once, before the stream goes on (so a `concat` of `defer` blocks reading
/// `currentState` sees each earlier mutation, as in ReactorKit). Prefer ``Mutations`` where the
/// action rate matters; the `Observable` form is there so that ReactorKit reactors port
/// unchanged.
///
/// A stream's failure is reported (as `StoreDiagnostic.effectFailed`) and the reactor goes on.
public protocol MutationsConvertible<Mutation> {
  /// The type of the mutations.
  associatedtype Mutation: Sendable

  /// These mutations as ``Mutations``: what the reactor applies.
  func asMutations() -> Mutations<Mutation>
}

extension Mutations: MutationsConvertible {
  /// The mutations themselves.
  @inlinable
  public func asMutations() -> Mutations<Mutation> { self }
}

extension Observable: MutationsConvertible {
  /// The mutations this stream emits, applied as they arrive (those it emits on subscription,
  /// before the reactor's `send` returns).
  @inlinable
  public func asMutations() -> Mutations<Element> {
    // A stream of plain values (`.just`, `.empty`, `.concat` of such): its elements are applied
    // at once, as ReactorKit applies them when it subscribes; no subscription, no effect.
    if let synchronousElements {
      switch synchronousElements {
      case .empty: return .none
      case .one(let box): return Mutations(sync: box.element)
      case .many(let elements): return Mutations(sync: elements)
      }
    }
    if Failure.self == (any Error).self {
      // Safety: `Failure` is `any Error`: the same type.
      return Mutations(async: .stream(unsafeBitCast(self, to: Observable<Element, any Error>.self)))
    }
    return Mutations(async: .stream(eraseFailure()))
  }
}
