import CascadeFeedback
import CascadeStreams
import CascadeTesting
import Testing

/// The examples of the CascadeTesting.docc landing page, kept compiling and passing.
@Suite(.checksResources)
struct DocumentationExamplesTests {
  @Test func echoesEachQueryAfterTwoSeconds() {
    let scheduler = TestScheduler()
    // Queries typed at absolute times 210 s and 240 s.
    let queries = scheduler.createHotObservable([
      .next(.seconds(210), "swift"),
      .next(.seconds(240), "swifter"),
    ])
    // A response 2 s after each query (what `delay` does, written with the scheduler).
    let responses = Observable<String, Never>.create { observer in
      queries.subscribe(onNext: { query in
        scheduler.schedule(after: .seconds(2)) { observer.onNext("results for \(query)") }
      })
    }

    // Created at 100 s, subscribed at 200 s, disposed of at 1,000 s.
    let observer = scheduler.start { responses }

    observer.assertEvents([
      .next(.seconds(212), "results for swift"),
      .next(.seconds(242), "results for swifter"),
    ])
    queries.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(1000))])
    withKnownIssue {
      observer.assertEvents([.next(.seconds(212), "results for swift")])
    } matching: { issue in
      let lines = issue.description.split(separator: "\n").map { $0.drop { $0 == " " } }
      return lines.contains("[0]: .next(…),") && lines.contains("+   [1]: .next(")
        && lines.contains("+     242.0 seconds,")
        && lines.contains(#"+     "results for swifter""#)
    }
  }

  @Test func coldStreamsAndSubscriptionWindows() {
    let scheduler = TestScheduler()
    let load = scheduler.createColdObservable([
      .next(.seconds(5), "page 1"), .completed(.seconds(20)),
    ])
    let observer = scheduler.start(subscribed: .seconds(210), disposed: .seconds(220)) { load }

    observer.assertEvents([.next(.seconds(215), "page 1")])
    load.assertSubscriptions([SubscriptionWindow(.seconds(210), .seconds(220))])
  }

  @Test func effectAndStreamShareTheClock() async throws {
    let scheduler = TestScheduler()
    let effect = Task {
      try await scheduler.sleep(for: .seconds(2))  // any `some Clock<Duration>` works the same
      return "saved"
    }
    let observer = scheduler.createObserver(String.self)
    let subscription = Observable<String, Never>.create { observer in
      scheduler.schedule(after: .seconds(3)) { observer.onNext("tick") }
    }
    .subscribe(observer)

    try await scheduler.waitForPendingItems(2)  // the sleep and the stream item
    await scheduler.advance(by: .seconds(1))
    #expect(scheduler.pendingCount == 2)  // the task still sleeps
    await scheduler.advance(by: .seconds(2))

    #expect(try await effect.valuePropagatingCancellation == "saved")
    observer.assertEvents([.next(.seconds(3), "tick")])
    subscription.dispose()
  }

  @Test func checkingForLeaks() {
    let subscription = Observable.from([1, 2]).map { $0 * 10 }.subscribe(onNext: { _ in })
    subscription.dispose()
  }

  // The "Exhaustive reactor and feedback loop tests" examples.
  @Test func refreshLoadsTheItems() async {
    let clock = TestScheduler()
    let store = TestStore(reactor: ReactorTestStoreTests.ListReactor(clock: clock), clock: clock)

    await store.send(.refresh) { $0.isLoading = true }
    await store.receive(.setItems(["a", "b"]), within: .seconds(1)) { $0.items = ["a", "b"] }
    await store.receive(.setLoading(false)) { $0.isLoading = false }
    await store.finish()
  }

  enum Event: Equatable, Sendable {
    case type(String)
    case found(String)
  }

  struct Search: Equatable, Sendable {
    var query = ""
    var result = ""

    static func reduce(_ state: inout Search, _ event: Event) {
      switch event {
      case .type(let query): state.query = query
      case .found(let result): state.result = result
      }
    }
  }

  @Test func searchesASecondAfterTyping() async {
    let clock = TestScheduler()
    let loop = FeedbackLoop(
      initialState: Search(),
      reduceInPlace: Search.reduce,
      feedbacks: [
        Feedback(skippingRepeated: { $0.query.isEmpty ? nil : $0.query }) { query in
          Observable.just(Event.found(query + "ly")).delay(.seconds(1), scheduler: clock)
        }
      ],
      scheduler: ImmediateScheduler.instance
    )
    let store = TestStore(loop: loop, clock: clock)

    await store.send(.type("swift")) { $0.query = "swift" }
    await store.receive(.found("swiftly"), within: .seconds(1)) { $0.result = "swiftly" }
    await store.finish()
  }
}
