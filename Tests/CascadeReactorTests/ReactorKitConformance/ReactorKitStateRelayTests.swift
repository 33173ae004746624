import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// ReactorKit's `StateRelay` cases (ReactorKit/ReactorKit,
// Tests/ReactorKitTests/StateRelayTests.swift), against Cascade's `StateRelay` (CascadeReactor,
// the state of a reactor's stub). Cascade spells ReactorKit's `StateRelay(value:)` as
// `StateRelay(_:)`; its `value` is read and set as ReactorKit's is.

@Suite(.checksResources)
struct ReactorKitStateRelayTests {
  /// Combining two relays gives their values at once, follows every set while subscribed, and
  /// nothing after the subscription is disposed.
  @Test func testInitialValues() {
    let a = StateRelay(1)
    let b = StateRelay(2)
    let c = a.combineLatest(b) { $0 + $1 }
    let latestValue = LockedBox<Int?>(nil)

    let subscription = c.subscribe(onNext: { latestValue.value = $0 })
    #expect(latestValue.value == 3)

    a.value = 5
    #expect(latestValue.value == 7)

    b.value = 9
    #expect(latestValue.value == 14)

    subscription.dispose()

    a.value = 10
    #expect(latestValue.value == 14)
  }

  /// Accepting a value makes it the relay's value.
  @Test func testAccept() {
    let relay = StateRelay(0)

    relay.accept(100)
    #expect(relay.value == 100)

    relay.accept(200)
    #expect(relay.value == 200)

    relay.accept(300)
    #expect(relay.value == 300)
  }

  /// Releasing a relay does not complete its subscribers: they keep the last value and see no
  /// completion, then or when disposed.
  @Test func testDoNotSendsCompletedOnDealloc() {
    var a: StateRelay<Int>? = StateRelay(1)
    let latest = LockedBox(0)
    let isCompleted = LockedBox(false)
    let disposable = a!.subscribe(
      onNext: { latest.value = $0 },
      onCompleted: { isCompleted.value = true }
    )
    #expect(latest.value == 1)
    #expect(!isCompleted.value)

    weak let released = a
    a = StateRelay(2)
    #expect(released == nil)
    #expect(latest.value == 1)
    #expect(!isCompleted.value)

    disposable.dispose()
    #expect(latest.value == 1)
    #expect(!isCompleted.value)
    _ = a
  }

  /// RxSwift's README example with `Variable`, on relays: a combined value follows each relay.
  @Test func testVariableREADMEExampleByStateRelay() {
    let a = StateRelay(1)
    let b = StateRelay(2)
    let c = a.combineLatest(b) { $0 + $1 }
    let latestValueOfC = LockedBox<Int?>(nil)

    let d = c.subscribe(onNext: { latestValueOfC.value = $0 })
    defer { d.dispose() }

    // Both relays have a value, so c has one at once.
    #expect(latestValueOfC.value == 3)

    a.value = 3
    #expect(latestValueOfC.value == 5)

    b.value = 5
    #expect(latestValueOfC.value == 8)
  }
}
