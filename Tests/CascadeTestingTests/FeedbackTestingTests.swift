import CascadeFeedback
import CascadeStreams
import CascadeTesting
import Testing

@Suite(.checksResources)
struct FeedbackTestingTests {
  enum Event: Sendable, Equatable { case increment, decrement }

  static func counter(on scheduler: TestScheduler) -> FeedbackLoop<Int, Event> {
    FeedbackLoop(
      initialState: 0,
      reduce: { count, event in event == .increment ? count + 1 : count - 1 },
      feedbacks: [],
      scheduler: scheduler
    )
  }

  struct Search: Sendable, Equatable {
    var query: String?
    var results: [String] = []

    enum Event: Sendable, Equatable {
      case type(String?)
      case found([String])
    }

    static func reduce(_ state: Search, _ event: Event) -> Search {
      var state = state
      switch event {
      case .type(let query):
        state.query = query
        state.results = []
      case .found(let results): state.results = results
      }
      return state
    }

    /// Results 2 s after the query is typed; a new query cancels the search in flight.
    static func results(on scheduler: TestScheduler) -> Feedback<Search, Event> {
      Feedback(skippingRepeated: { $0.query }) { query in
        Observable.just(Event.found([query])).delay(
          .seconds(2),
          scheduler: scheduler
        )
      }
    }
  }

  @Test func assertsTheStatesOfEventsSentAtTheirTimes() async {
    let scheduler = TestScheduler()
    let loop = Self.counter(on: scheduler)
    scheduler.assertStates(
      of: loop,
      events: [.next(.seconds(1), .increment), .next(.seconds(2), .increment)],
      equal: [0, 1, 2]
    )
    #expect(scheduler.now == SchedulerInstant(offset: .seconds(2)))
    await loop.shutdown()
  }

  @Test func aMismatchIsReportedWithADiff() async {
    let scheduler = TestScheduler()
    let loop = Self.counter(on: scheduler)
    withKnownIssue {
      scheduler.assertStates(
        of: loop,
        events: [.next(.seconds(1), .increment), .next(.seconds(2), .increment)],
        equal: [0, 1, 3],
        "two increments"
      )
    } matching: { issue in
      let text = issue.description
      return text.contains("The loop's states differ from the expected ones: two increments")
        && text.contains("… (2 unchanged),")
        && text.contains("-   [2]: 3") && text.contains("+   [2]: 2")
        && text.contains("(Expected: -, Actual: +)")
    }
    #expect(loop.currentState == 2)
    await loop.shutdown()
  }

  @Test func recordsStatesWithTheirTimesAndStopsOnCompletion() {
    let scheduler = TestScheduler()
    let loop = FeedbackLoop(
      initialState: Search(),
      reduce: Search.reduce,
      feedbacks: [Search.results(on: scheduler)],
      scheduler: scheduler
    )
    let states = scheduler.recordStates(
      of: loop,
      events: [.next(.seconds(1), .type("swift")), .completed(.seconds(5))]
    )
    states.assertEvents([
      .next(.zero, Search()),
      .next(.seconds(1), Search(query: "swift")),
      .next(.seconds(3), Search(query: "swift", results: ["swift"])),
      .completed(.seconds(5)),
    ])
  }

  @Test func runsUntilTheGivenTimeAndDropsLaterEvents() async {
    let scheduler = TestScheduler()
    let loop = FeedbackLoop(
      initialState: Search(),
      reduce: Search.reduce,
      feedbacks: [Search.results(on: scheduler)],
      scheduler: scheduler
    )
    // The search for "a" is cancelled at 2 s by "ab", whose results arrive at 4 s, after the
    // end; "abc" at 10 s is never sent.
    let states = scheduler.recordStates(
      of: loop,
      events: [
        .next(.seconds(1), .type("a")), .next(.seconds(2), .type("ab")),
        .next(.seconds(10), .type("abc")),
      ],
      until: .seconds(3)
    )
    states.assertEvents([
      .next(.zero, Search()),
      .next(.seconds(1), Search(query: "a")),
      .next(.seconds(2), Search(query: "ab")),
    ])
    #expect(scheduler.now == SchedulerInstant(offset: .seconds(3)))
    // The loop goes on; its search in flight still lands.
    scheduler.assertStates(
      of: loop,
      equal: [Search(query: "ab"), Search(query: "ab", results: ["ab"])]
    )
    await loop.shutdown()
  }

  @Test func eventsInThePastAreSentAtOnce() async {
    let scheduler = TestScheduler()
    await scheduler.advance(by: .seconds(5))
    let loop = Self.counter(on: scheduler)
    let states = scheduler.recordStates(of: loop, events: [.next(.seconds(1), .decrement)])
    states.assertEvents([.next(.seconds(5), 0), .next(.seconds(5), -1)])
    await loop.shutdown()
  }

  @Test func worksWithALoopDeliveringSynchronously() async {
    let scheduler = TestScheduler()
    let loop = FeedbackLoop<Int, Event>(
      initialState: 0,
      reduce: { count, event in event == .increment ? count + 1 : count - 1 },
      feedbacks: [],
      scheduler: ImmediateScheduler.instance
    )
    let states = scheduler.recordStates(
      of: loop,
      events: [.next(.seconds(1), .increment), .next(.seconds(3), .decrement)]
    )
    states.assertEvents([.next(.zero, 0), .next(.seconds(1), 1), .next(.seconds(3), 0)])
    await loop.shutdown()
  }

  // The example of the CascadeTesting.docc landing page.
  @Test func searchesTwoSecondsAfterTyping() {
    let scheduler = TestScheduler()
    let loop = FeedbackLoop(
      initialState: Search(),
      reduce: Search.reduce,
      feedbacks: [
        Feedback(skippingRepeated: { $0.query }) { query in
          Observable.just(Search.Event.found([query])).delay(.seconds(2), scheduler: scheduler)
        }
      ],
      scheduler: scheduler
    )
    scheduler.assertStates(
      of: loop,
      events: [.next(.seconds(1), .type("swift"))],
      equal: [Search(), Search(query: "swift"), Search(query: "swift", results: ["swift"])]
    )
    let states = scheduler.recordStates(of: loop, events: [.completed(.seconds(5))])
    states.assertEvents([
      .next(.seconds(3), Search(query: "swift", results: ["swift"])),
      .completed(.seconds(5)),
    ])
  }
}
