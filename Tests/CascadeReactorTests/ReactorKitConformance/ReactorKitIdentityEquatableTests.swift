import CascadeReactor
import CascadeTesting
import Testing

// ReactorKit's `IdentityEquatable` case (ReactorKit/ReactorKit,
// Tests/ReactorKitTests/IdentityEquatableTests.swift). Cascade has no `IdentityEquatable` yet, so
// the case is written as it would read, and compiled out.

@Suite(.checksResources)
struct ReactorKitIdentityEquatableTests {
  private final class SimpleReactor: Reactor, IdentityEquatable {
    typealias Action = Never
    struct State: Sendable {}

    let initialState = State()
  }

  /// A reactor marked `IdentityEquatable` is equal to itself, through another reference.
  @Test func testReactorEqual_whenCurrentStatesAreEqual() {
    let reactorA = SimpleReactor()
    let reactorB = reactorA
    #expect(reactorA == reactorB)
  }
}
