import CascadeFeedback
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// ReactiveFeedback's `SignalProducer.system(initial:scheduler:reduce:feedbacks:)` cases
// (babylonhealth/ReactiveFeedback, ReactiveFeedbackTests/SystemTests.swift), re-expressed on
// Cascade's `FeedbackLoop(initial:reduce:feedbacks:scheduler:)`.
//
// How the peer's vocabulary maps:
// - The system is a producer started by its consumer; a `FeedbackLoop` starts in its `init`,
//   and its consumer subscribes to `states` afterwards. `take(first:)` on the system ends the
//   system; a loop is ended with `shutdown()`.
// - A `Feedback { state in producer }` restarts its producer on every state: Cascade's custom
//   form with `flatMapLatest` (the mapping in CascadeFeedback's documentation).
// - The peer's default scheduler (the main queue) becomes `ImmediateScheduler`, and its real
//   `delay` on the main queue a `delay` on a `TestScheduler`, so no case waits on the clock.
// - The peer's `TestScheduler` is CascadeTesting's `TestScheduler`.
//
// Every case is carried: none depends on UIKit, AppKit or the Objective-C runtime.
@Suite(.checksResources)
struct ReactiveFeedbackSystemTests {
  /// The peer's reducer: appends the event to the state.
  static let append: @Sendable (String, String) -> String = { state, event in state + event }

  #if false  // FIXME(#33): hangs: a feedback emits on every state; the loop's init never returns
  // The feedback emits "_a" synchronously for every state, so the loop reduces forever inside
  // `FeedbackLoop.init` (the peer's system is stopped by its consumer's `first()`, and hops
  // every event through its scheduler). Even once `init` returns, a subscriber that comes after
  // it would miss `initial`.
  /// The first state the system emits is the initial one, even with a feedback that emits an
  /// event for every state.
  @Test func test_emits_initial() async {
    let loop = FeedbackLoop<String, String>(
      initial: "initial",
      reduce: Self.append,
      feedbacks: [Feedback { states in states.flatMapLatest { _ in Observable.just("_a") } }],
      scheduler: ImmediateScheduler.instance
    )
    let first = Recorder<String>()
    let subscription = loop.states.take(1).subscribe(onNext: { first.append($0) })
    #expect(first.values == ["initial"])
    subscription.dispose()
    await loop.shutdown()
  }
  #endif

  #if false  // FIXME(#33): hangs: a feedback emits on every state; the loop's init never returns
  // The feedback emits "_a" synchronously for every state, so `FeedbackLoop.init` never returns
  // (the peer's consumer takes three states and stops the system).
  /// One feedback emitting "_a" for every state: the states are the initial one, then one more
  /// "_a" each time.
  @Test func test_reducer_with_one_feedback_loop() async {
    let loop = FeedbackLoop<String, String>(
      initial: "initial",
      reduce: Self.append,
      feedbacks: [Feedback { states in states.flatMapLatest { _ in Observable.just("_a") } }],
      scheduler: ImmediateScheduler.instance
    )
    let states = Recorder<String>()
    let subscription = loop.states.take(3).subscribe(onNext: { states.append($0) })
    #expect(states.values == ["initial", "initial_a", "initial_a_a"])
    subscription.dispose()
    await loop.shutdown()
  }
  #endif

  #if false  // FIXME(#33): hangs: a feedback emits on every state; the loop's init never returns
  // One of the two feedbacks emits synchronously for every state, so `FeedbackLoop.init` never
  // returns (the peer's consumer takes five states and stops the system).
  /// Two feedbacks that each emit unless the state ends with their own suffix take turns: the
  /// first event is the first feedback's, then they alternate.
  @Test func test_reduce_with_two_immediate_feedback_loops() async {
    let appendA = Feedback<String, String> { states in
      states.flatMapLatest { state in
        state.hasSuffix("_a") ? Observable.empty() : Observable.just("_a")
      }
    }
    let appendB = Feedback<String, String> { states in
      states.flatMapLatest { state in
        state.hasSuffix("_b") ? Observable.empty() : Observable.just("_b")
      }
    }
    let loop = FeedbackLoop<String, String>(
      initial: "initial",
      reduce: Self.append,
      feedbacks: [appendA, appendB],
      scheduler: ImmediateScheduler.instance
    )
    let states = Recorder<String>()
    let subscription = loop.states.take(5).subscribe(onNext: { states.append($0) })
    #expect(
      states.values == [
        "initial", "initial_a", "initial_a_b", "initial_a_b_a", "initial_a_b_a_b",
      ]
    )
    subscription.dispose()
    await loop.shutdown()
  }
  #endif

  /// A feedback whose first event comes later (a delay) and whose next ones come at once: the
  /// loop waits for the late event, then reduces the immediate ones in turn.
  @Test func test_reduce_with_async_feedback_loop() async {
    let scheduler = TestScheduler()
    let feedback = Feedback<String, String> { states in
      states.flatMapLatest { state -> Observable<String, Never> in
        switch state {
        case "initial": Observable.just("_a").delay(.milliseconds(100), scheduler: scheduler)
        case "initial_a": Observable.just("_b")
        case "initial_a_b": Observable.just("_c")
        default: Observable.empty()
        }
      }
    }
    let loop = FeedbackLoop<String, String>(
      initial: "initial",
      reduce: Self.append,
      feedbacks: [feedback],
      scheduler: ImmediateScheduler.instance
    )
    let states = Recorder<String>()
    let subscription = loop.states.take(4).subscribe(onNext: { states.append($0) })
    #expect(states.values == ["initial"])
    await scheduler.advance(by: .milliseconds(100))
    #expect(states.values == ["initial", "initial_a", "initial_a_b", "initial_a_b_c"])
    subscription.dispose()
    await loop.shutdown()
  }

  /// A feedback's hot stream is subscribed to as soon as the system starts: its first event is
  /// not lost, and reaches the consumer on the system's scheduler's next turn.
  @Test func test_should_observe_signals_immediately() async {
    let scheduler = TestScheduler()
    let signal = PublishSubject<String, Never>()
    let loop = FeedbackLoop<String, String>(
      initial: "initial",
      reduce: Self.append,
      feedbacks: [Feedback { states in states.flatMapLatest { _ in signal } }],
      scheduler: scheduler
    )
    let value = LockedBox<String?>(nil)
    let subscription = loop.states.subscribe(onNext: { value.value = $0 })
    // The state subscribed to arrives at once, on the subscribing thread; what follows, on the
    // loop's scheduler.
    #expect(value.value == "initial")
    signal.onNext("_a")
    #expect(value.value == "initial")
    await scheduler.advance()
    #expect(value.value == "initial_a")
    subscription.dispose()
    await loop.shutdown()
  }

  #if false  // FIXME(#33): hangs: a feedback emits on every state; the loop's init never returns
  // The feedback's producer emits "_a" synchronously for every state, so `FeedbackLoop.init`
  // never returns (the peer hops each event through the `TestScheduler`, one per `advance()`,
  // and its consumer's `take(first: 2)` stops the system). Once `init` returns, the first
  // expectation still meets the delayed initial state (see
  // `test_should_observe_signals_immediately`).
  /// A feedback's producer is started as soon as the system starts, and again for each new
  /// state; once the consumer has its two distinct states, nothing more starts.
  @Test func test_should_start_producers_immediately() async {
    let scheduler = TestScheduler()
    let starts = Counter()
    let loop = FeedbackLoop<String, String>(
      initial: "initial",
      reduce: Self.append,
      feedbacks: [
        Feedback { states in
          states.flatMapLatest { _ in
            Observable.just("_a").do(onSubscribe: { starts.increment() })
          }
        }
      ],
      scheduler: scheduler
    )
    let value = LockedBox<String?>(nil)
    let subscription = loop.states.distinctUntilChanged().take(2).subscribe(
      onNext: { value.value = $0 },
      onCompleted: { loop.close() }
    )
    withKnownIssue("#33: a loop with a scheduler delays its initial state to the next turn") {
      #expect(value.value == "initial")
    }
    #expect(starts.value == 1)
    await scheduler.advance()
    #expect(value.value == "initial_a")
    #expect(starts.value == 2)
    await scheduler.advance()
    #expect(value.value == "initial_a")
    #expect(starts.value == 2)
    subscription.dispose()
    await loop.shutdown()
  }
  #endif

  /// A loop made on one queue, whose feedback sends its event through another: the reducer gets
  /// the event, and the consumer sees the initial state and the one after it.
  @Test func test_should_not_miss_delivery_to_reducer_when_started_asynchronously() async {
    let systemScheduler = SerialDispatchQueueScheduler(label: "ReactiveFeedbackSystemTests")
    let observed = Recorder<String>()
    // The consumer sees every state, as the peer's does (Cascade coalesces by default).
    let (loop, subscription) = await onOwnThread {
      let loop = FeedbackLoop<String, String>(
        initial: "initial",
        reduce: Self.append,
        feedbacks: [
          Feedback { states in
            states.take(1).map { _ in "_event" }.observe(on: systemScheduler)
          }
        ],
        scheduler: systemScheduler,
        deliversEveryState: true
      )
      return (loop, loop.states.subscribe(onNext: { observed.append($0) }))
    }
    #expect(await observed.wait { $0.contains("initial_event") })
    // FIXME(#33): the loop starts in `init`, before anyone can subscribe; when the feedback's
    // event is reduced on the system queue before the subscription, the subscriber's replay is
    // "initial_event" and `initial` is lost (the peer's consumer is attached before the start).
    withKnownIssue("#33: a late subscriber misses the initial state", isIntermittent: true) {
      #expect(observed.values == ["initial", "initial_event"])
    }
    subscription.dispose()
    await loop.shutdown()
  }

  /// A feedback under a predicate sends its events only while the predicate holds: of seven
  /// increments, only those while the count is below two change the state.
  @Test func test_predicate_prevents_state_updates() async {
    enum Event: Sendable { case increment }
    let increments = PublishSubject<Void, Never>()
    // The peer restarts the effect on every state where the predicate holds; Cascade's keeps it
    // running. The events reduced are the same.
    let feedback = Feedback<Int, Event>(predicate: { $0 < 2 }) { _ in
      increments.map { Event.increment }
    }
    let loop = FeedbackLoop<Int, Event>(
      initial: 0,
      reduce: { state, event in
        switch event {
        case .increment: state + 1
        }
      },
      feedbacks: [feedback],
      scheduler: ImmediateScheduler.instance
    )
    let states = Recorder<Int>()
    let subscription = loop.states.subscribe(onNext: { states.append($0) })
    for _ in 0..<7 { increments.onNext() }
    subscription.dispose()
    #expect(states.values == [0, 1, 2])
    await loop.shutdown()
  }
}
