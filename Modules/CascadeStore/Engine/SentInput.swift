/// An input as an architecture's `send` hands it to the engine: the input, in a struct, so that
/// the engine's functions take a struct, not the input's type.
///
/// **Why.** For an architecture whose input is a protocol's existential (the seed's
/// `any CoreEvent`, ReSwift's `Action`), the optimizer's existential specializer rewrites a
/// function it sees called with an existential of a known concrete type (`core.fire(event:
/// Changed(…))`, the public `send` inlined into the caller) into a generic one over that type,
/// whose body makes the existential again. For a value too large for an existential's inline
/// buffer, that is a heap box and a copy of the value per function rewritten: the engine's
/// `submitAction`, `reduce` and `submitReentrant`, then the log's `append` and the state
/// machine's `admitReentrant`, two or three boxes per input besides the caller's own. The
/// specializer looks only at parameters of an existential type, so it leaves a function taking
/// this struct alone: the caller's box is the only one, retained, not copied.
///
/// The architectures' public `send` functions wrap their input and are always inlined (a `send`
/// left out of line would be rewritten itself); the engine's functions that are not always
/// inlined and take an input from a caller take this. An input the engine takes from its own
/// queue came through a parameter, where the specializer cannot see its type.
///
/// For any other input type it costs nothing: a struct of one stored property has its layout
/// (W1 Store, whose action is an enum: 610 instructions per action before and after, with
/// `Tooling/callgrind.sh`). W1's ReSwift-form cell (`any CounterAction`, 32-byte actions): 1,747
/// → 1,518 instructions and 2 → 1 allocations per action.
@usableFromInline @frozen
package struct SentInput<Input> {
  /// The input.
  @usableFromInline package var input: Input

  /// Wraps `input`.
  @inlinable @inline(__always)
  package init(_ input: consuming Input) {
    self.input = input
  }
}

extension SentInput: Sendable where Input: Sendable {}
