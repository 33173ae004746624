import CascadeTesting
import Testing

@testable import CascadeReactor

// ReactorKit's `Pulse` cases (ReactorKit/ReactorKit, Tests/ReactorKitTests/PulseTests.swift),
// against Cascade's `Pulse`. As in ReactorKit, the update count's setter is internal: the
// overflow case sets it through `@testable import`, as ReactorKit's test does.

@Suite(.checksResources)
struct ReactorKitPulseTests {
  /// Every assignment counts as an update, even of an equal value; reading does not.
  @Test func testRiseValueUpdatedCountWhenSetNewValue() {
    struct State {
      @Pulse var value = 0
    }

    var state = State()

    #expect(state.$value.valueUpdatedCount == 0)
    state.value = 10
    #expect(state.$value.valueUpdatedCount == 1)
    #expect(state.$value.valueUpdatedCount == 1)  // read again: no assignment, same count
    state.value = 20
    #expect(state.$value.valueUpdatedCount == 2)
    state.value = 20
    #expect(state.$value.valueUpdatedCount == 3)
    state.value = 20
    #expect(state.$value.valueUpdatedCount == 4)
    #expect(state.$value.valueUpdatedCount == 4)  // read again: no assignment, same count
    state.value = 30
    #expect(state.$value.valueUpdatedCount == 5)
    state.value = 30
    #expect(state.$value.valueUpdatedCount == 6)
  }

  /// The update count wraps around to zero instead of overflowing.
  @Test func testSet0WhenValueUpdatedCountIsOverflowed() {
    var pulse = Pulse<Int>(wrappedValue: 0)

    pulse.valueUpdatedCount = UInt.max
    #expect(pulse.valueUpdatedCount == UInt.max)

    pulse.value = 1  // the count overflows
    #expect(pulse.valueUpdatedCount == 0)

    pulse.value = 2
    #expect(pulse.valueUpdatedCount == 1)
  }
}
