import CascadeReactor
import CascadeTesting
import Testing

// ReactorKit's `IdentityHashable` case (ReactorKit/ReactorKit,
// Tests/ReactorKitTests/IdentityHashableTests.swift). Cascade has no `IdentityHashable` yet, so
// the case is written as it would read, and compiled out.

@Suite(.checksResources)
struct ReactorKitIdentityHashableTests {
  private final class SimpleReactor: Reactor, IdentityHashable {
    typealias Action = Never
    struct State: Sendable {}

    let initialState = State()
  }

  /// A reactor marked `IdentityHashable` has one hash value and is equal to itself, through
  /// another reference.
  @Test func testReactorHashValue() {
    let reactorA = SimpleReactor()
    let reactorB = reactorA
    #expect(reactorA.hashValue == reactorB.hashValue)
    #expect(reactorA == reactorB)
  }
}
