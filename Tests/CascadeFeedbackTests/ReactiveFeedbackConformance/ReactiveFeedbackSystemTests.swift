import CascadeFeedback
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// ReactiveFeedback's `SignalProducer.system(initial:scheduler:reduce:feedbacks:)` cases
// (babylonhealth/ReactiveFeedback, ReactiveFeedbackTests/SystemTests.swift), re-expressed on
// Cascade's `FeedbackLoop(initial:reduce:feedbacks:scheduler:)` and its cold form,
// `Observable.system(initial:reduce:feedbacks:scheduler:)`.
//
// How the peer's vocabulary maps:
// - The system is a producer started by its consumer: `Observable.system`, one loop per
//   subscription, attached before the feedbacks start, whose feedbacks' events go through the
//   scheduler as the peer's do, and which `take(first:)` ends. A `FeedbackLoop` is the same
//   machine kept as an object: it starts in its `init`, its consumers subscribe to `states`
//   afterwards, and `shutdown()` ends it.
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

  /// The first state the system emits is the initial one, even with a feedback that emits an
  /// event for every state: the consumer takes it, and the system stops.
  @Test func test_emits_initial() async {
    let scheduler = TestScheduler()
    let first = Recorder<String>()
    let subscription = Observable<String, Never>.system(
      initial: "initial",
      reduce: Self.append,
      feedbacks: [Feedback { states in states.flatMapLatest { _ in Observable.just("_a") } }],
      scheduler: scheduler
    )
    .take(1)
    .subscribe(onNext: { first.append($0) })
    #expect(first.values == ["initial"])
    await scheduler.advance()
    #expect(first.values == ["initial"])
    subscription.dispose()
  }

  /// One feedback emitting "_a" for every state: the states are the initial one, then one more
  /// "_a" each time, each event a turn later; taking three stops the system.
  @Test func test_reducer_with_one_feedback_loop() async {
    let scheduler = TestScheduler()
    let states = Recorder<String>()
    let subscription = Observable<String, Never>.system(
      initial: "initial",
      reduce: Self.append,
      feedbacks: [Feedback { states in states.flatMapLatest { _ in Observable.just("_a") } }],
      scheduler: scheduler
    )
    .take(3)
    .subscribe(onNext: { states.append($0) })
    await scheduler.advance()
    #expect(states.values == ["initial", "initial_a", "initial_a_a"])
    await scheduler.advance()
    #expect(states.values.count == 3)
    subscription.dispose()
  }

  /// Two feedbacks that each emit unless the state ends with their own suffix: the first event
  /// is the first feedback's, and every event either emitted is reduced, in order.
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
    let scheduler = TestScheduler()
    let states = Recorder<String>()
    let subscription = Observable<String, Never>.system(
      initial: "initial",
      reduce: Self.append,
      feedbacks: [appendA, appendB],
      scheduler: scheduler,
      deliversEveryState: true
    )
    .take(5)
    .subscribe(onNext: { states.append($0) })
    await scheduler.advance()
    // Deliberate difference: the peer gives "initial", "initial_a", "initial_a_b",
    // "initial_a_b_a", "initial_a_b_a_b". Its feedbacks hop each producer's event through the
    // scheduler inside their `flatMapLatest`, so B's answer to "initial", still waiting there
    // when "initial_a" arrives, is discarded with the producer it came from. Cascade hops the
    // event once it has left the feedback, and reduces every event a feedback emitted: B's
    // answers to "initial" and to "initial_a" both count.
    #expect(
      states.values == [
        "initial", "initial_a", "initial_a_b", "initial_a_b_b", "initial_a_b_b_a",
      ]
    )
    subscription.dispose()
  }

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

  /// A feedback's producer is started as soon as the system starts, and again for each new
  /// state; once the consumer has its two distinct states, the system stops and nothing more
  /// starts.
  @Test func test_should_start_producers_immediately() async {
    let scheduler = TestScheduler()
    let starts = Counter()
    let value = LockedBox<String?>(nil)
    let subscription = Observable<String, Never>.system(
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
    .distinctUntilChanged()
    .take(2)
    .subscribe(onNext: { value.value = $0 })
    #expect(value.value == "initial")
    #expect(starts.value == 1)
    await scheduler.advance()
    #expect(value.value == "initial_a")
    #expect(starts.value == 2)
    await scheduler.advance()
    #expect(value.value == "initial_a")
    #expect(starts.value == 2)
    subscription.dispose()
  }

  /// A loop made on one queue, whose feedback sends its event through another: the reducer gets
  /// the event, and the consumer sees the initial state and the one after it.
  @Test func test_should_not_miss_delivery_to_reducer_when_started_asynchronously() async {
    let systemScheduler = SerialDispatchQueueScheduler(label: "ReactiveFeedbackSystemTests")
    let observed = Recorder<String>()
    // The consumer sees every state, as the peer's does (Cascade coalesces by default).
    let subscription = await onOwnThread {
      Observable<String, Never>.system(
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
      .subscribe(onNext: { observed.append($0) })
    }
    #expect(await observed.wait { $0.contains("initial_event") })
    #expect(observed.values == ["initial", "initial_event"])
    subscription.dispose()
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
