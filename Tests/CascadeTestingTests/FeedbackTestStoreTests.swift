import CascadeFeedback
import CascadeStreams
import CascadeTesting
import Testing

/// The exhaustive test store on a feedback loop: `send` asserts an event sent from outside,
/// `receive` each event a feedback emits, on virtual time; and one test per failure of AT-33.
@Suite(.checksResources, .timeLimit(.minutes(5)))
struct FeedbackTestStoreTests {
  struct Search: Equatable, Sendable {
    var query = ""
    var result = ""
    var watching = false

    enum Event: Equatable, Sendable {
      case type(String)
      case found(String)
      case watch(Bool)
      case noop
    }

    static func reduce(_ state: inout Search, _ event: Event) {
      switch event {
      case .type(let query): state.query = query
      case .found(let result): state.result = result
      case .watch(let on): state.watching = on
      case .noop: break
      }
    }

    /// A loop that searches a second after each query, and, while watching, runs an effect that
    /// never ends.
    static func loop(on clock: TestScheduler) -> FeedbackLoop<Search, Event> {
      FeedbackLoop(
        initialState: Search(),
        reduceInPlace: reduce,
        feedbacks: [
          Feedback(skippingRepeated: { $0.query.isEmpty ? nil : $0.query }) { query in
            Observable.just(Event.found(query + "ly")).delay(.seconds(1), scheduler: clock)
          },
          Feedback(predicate: \.watching) { _ in Observable<Event, Never>.never() },
        ],
        scheduler: ImmediateScheduler.instance
      )
    }
  }

  // MARK: - Happy paths

  @Test func sendAssertsEachEvent() async {
    let store = TestStore(loop: Search.loop(on: TestScheduler()))
    await store.send(.found("a")) { $0.result = "a" }
    await store.send(.noop)
    #expect(store.state.result == "a")
    await store.finish()
  }

  // AT-33: the event of a feedback effect is received on virtual time.
  @Test func receivesTheEventsOfFeedbackEffects() async {
    let clock = TestScheduler()
    let store = TestStore(loop: Search.loop(on: clock), clock: clock)

    await store.send(.type("swift")) { $0.query = "swift" }
    await store.receive(.found("swiftly"), within: .seconds(5)) { $0.result = "swiftly" }
    #expect(clock.now == SchedulerInstant(offset: .seconds(1)))
    await store.finish()
  }

  @Test func eventsSentStraightToTheLoopAreReceived() async {
    let store = TestStore(loop: Search.loop(on: TestScheduler()))
    store.loop.send(.found("a"))
    await store.receive(.found("a")) { $0.result = "a" }
    await store.finish()
  }

  // MARK: - AT-33 failures

  // AT-33 (1), (2), (3): the state after an event, checked exhaustively.
  @Test func failsForWrongMissingAndSpuriousChanges() async {
    let store = TestStore(loop: Search.loop(on: TestScheduler()))
    await withKnownIssue {
      await store.send(.found("a")) { $0.result = "b" }
    } matching: { issue in
      let text = issue.description
      return text.contains("The state after send(.found(\"a\")) does not match the expectation")
        && text.contains("(Expected: -, Actual: +)")
    }
    await withKnownIssue {
      await store.send(.found("c"))
    } matching: { issue in
      issue.description.contains("State changed after send(.found(\"c\")), but no change")
    }
    await withKnownIssue {
      await store.send(.noop) { $0.query = "x" }
    } matching: { issue in
      issue.description.contains(
        "A state change was asserted after send(.noop), but the state did not change"
      )
    }
    await store.finish()
  }

  // AT-33 (4): a received event not asserted at the end.
  @Test func failsForAReceivedEventNotAsserted() async {
    let clock = TestScheduler()
    let store = TestStore(loop: Search.loop(on: clock), clock: clock)
    await store.send(.type("swift")) { $0.query = "swift" }
    await clock.advance(by: .seconds(1))
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      let text = issue.description
      return text.contains("1 received event was not asserted at the end of the test:")
        && text.contains("\n  .found(\"swiftly\")\n")
    }
  }

  // AT-33 (5): an event that never comes, naming it; at once, as no effect is in flight.
  @Test func failsWhenAnEventNeverCame() async {
    let store = TestStore(loop: Search.loop(on: TestScheduler()))
    await withKnownIssue {
      await store.receive(.found("a"))
    } matching: { issue in
      issue.description.contains(
        "Expected to receive .found(\"a\"), but it never arrived: no feedback effect is in "
          + "flight to send it"
      )
    }
    await store.finish()
  }

  // AT-33 (6): a feedback effect still running at the end.
  @Test func failsForAnEffectStillRunningAtTheEnd() async {
    let store = TestStore(loop: Search.loop(on: TestScheduler()))
    await store.send(.watch(true)) { $0.watching = true }
    await withKnownIssue {
      await store.finish(timeout: .milliseconds(100))
    } matching: { issue in
      issue.description.contains("1 effect is still running at the end of the test:")
        && issue.description.contains("\"feedback effect\", started after send(.watch(true))")
    }
    await store.send(.watch(false)) { $0.watching = false }
    await store.finish()
  }
}
