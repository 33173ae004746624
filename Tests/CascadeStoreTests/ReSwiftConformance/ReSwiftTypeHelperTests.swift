import CascadeStore
import CascadeTestSupport
import CascadeTesting
import Testing

// ReSwift's TypeHelperTests (ReSwift/ReSwift, ReSwiftTests/TypeHelperTests.swift), re-expressed
// on Cascade's typed reducers.
//
// ReSwift's `withSpecificTypes` calls an untyped reducer `(Action, State?) -> State` when the
// store's `Any` state casts to the reducer's state type (or is `nil`), and skips it otherwise.
// Cascade's reducers are typed, `(inout State, Action) -> Void`, and a store always has a state,
// so there is no cast to make at run time:
// - testSourceTypeCasting is carried: a store calls its reducer with its own state type.
// - testCallsIfSourceTypeIsNil is not carried: a Cascade store has no `nil` state; its initial
//   state is given at creation (see ReSwiftStoreTests.testInit).
// - testDoesntCallIfCastFails is not carried: a reducer over another state type does not
//   compile (`Store<AppState2, _>` cannot take a reducer over `AppState1`), so the case that
//   ReSwift checks at run time cannot arise.
@Suite(.checksResources)
struct ReSwiftTypeHelperTests {
  /// ReSwift's `AppState1`.
  struct AppState1: Sendable {
    var reduced = 0
  }

  /// A reducer whose state type is the store's is called with that state.
  @Test func testSourceTypeCasting() {
    let called = Counter()
    let store = Store(initialState: AppState1()) { (state: inout AppState1, _: ReSwiftAction) in
      called.increment()
      state.reduced += 1
    }

    store.send(.noOp)

    #expect(called.value == 1)
    #expect(store.currentState.reduced == 1)
  }
}
