import CascadeStore

/// W1's Store column in ReSwift's form: the actions are values of a protocol's existential
/// (`any CounterAction`, as ReSwift's `Action`), each too large for an existential's inline
/// buffer, so that sending one boxes it once, in the caller.
///
/// What this cell measures is what the store adds to that box: nothing, neither a copy nor a
/// second box (the allocation gate holds it to one allocation per action, the caller's). Before
/// the engine took its inputs wrapped (`SentInput`), the optimizer rewrote the engine's functions
/// for `Increment`, and each made the existential again.
extension W1 {
  protocol CounterAction: Sendable {}

  /// 32 bytes: more than an existential's three words.
  struct Increment: CounterAction {
    var by: Int
    var source: String
    var id: UInt64
  }

  /// Never sent: a second conforming type, as an app has, so that the optimizer does not take
  /// `Increment` for the only type an `any CounterAction` can hold (with one, it rewrites the
  /// functions taking one for it, an app's case no longer).
  struct Reset: CounterAction {}

  static let existentialCell = Cell(
    workload,
    .store,
    variant: "ReSwift's form: actions of a protocol, `any CounterAction`, each boxed",
    expected: expected,
    run: runStoreWithExistentialActions
  )

  static func runStoreWithExistentialActions(n: Int) throws -> Checksum {
    let reducer: @Sendable (inout State, any CounterAction) -> Void = { state, action in
      switch action {
      case let increment as Increment: state.count &+= increment.by
      case is Reset: state.count = 0
      default: break
      }
    }
    let store = Store(initialState: State(), reducer: opaque(reducer))
    return try measure(store, n: n) { dispatch(n: n, to: $0) }
  }

  @inline(never)
  static func dispatch(n: Int, to store: Store<State, any CounterAction>) {
    for index in 0..<n {
      store.send(Increment(by: 1, source: "bench", id: UInt64(truncatingIfNeeded: index)))
    }
  }
}
