import CascadeFeedback
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// ReactiveFeedback's `SignalProducer.feedbackLoop(initial:reduce:feedbacks:)` cases, the system
// built on its `FeedbackLoop` with a reducer that mutates in place (babylonhealth/
// ReactiveFeedback, ReactiveFeedbackTests/FeedbackLoopSystemTests.swift), re-expressed on
// Cascade's `FeedbackLoop(initial:reduceInPlace:feedbacks:scheduler:)` and its cold form,
// `Observable.system(initial:reduceInPlace:feedbacks:scheduler:)`.
//
// How the peer's vocabulary maps:
// - The peer's loop has no scheduler: states and events go through synchronously. Cascade's
//   loop is given `ImmediateScheduler`, which delivers its states the same way.
// - The system is a producer started by its consumer: `Observable.system`, one loop per
//   subscription, whose consumer is attached before the feedbacks start, and which
//   `take(first:)` ends. Where the peer's feedbacks answer every state with an event, its cases
//   run on a `TestScheduler`: the cold form sends each such event through the scheduler, a turn
//   later, so that the consumer can stop the loop (a hot `FeedbackLoop`, which starts in its
//   `init`, reduces them at once; see `FeedbackLoop.settleLimit`).
// - `FeedbackLoop.Feedback { state in producer }` restarts its producer on every state:
//   Cascade's custom form with `flatMapLatest`. `FeedbackLoop.Feedback { state, output in … }`,
//   which enqueues to its output itself, is `Feedback(start:)` sending through its context.
// - The peer's real `delay` on the main queue is a `delay` on a `TestScheduler`.
//
// Every case is carried: none depends on UIKit, AppKit or the Objective-C runtime.
@Suite(.checksResources)
struct ReactiveFeedbackFeedbackLoopSystemTests {
  /// The peer's reducer: appends the event to the state, in place.
  static let append: @Sendable (inout String, String) -> Void = { state, event in state += event }

  /// The first state the system emits is the initial one, even with a feedback that emits an
  /// event for every state: the consumer takes it, and the system stops.
  @Test func test_emits_initial() async {
    let scheduler = TestScheduler()
    let first = Recorder<String>()
    let subscription = Observable<String, Never>.system(
      initial: "initial",
      reduceInPlace: Self.append,
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
      reduceInPlace: Self.append,
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
      reduceInPlace: Self.append,
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
      reduceInPlace: Self.append,
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

  /// A feedback's hot stream is subscribed to as soon as the loop starts: an event it emits
  /// right after is reduced, and the consumer sees the new state at once.
  @Test func test_should_observe_signals_immediately() async {
    let signal = PublishSubject<String, Never>()
    let loop = FeedbackLoop<String, String>(
      initial: "initial",
      reduceInPlace: Self.append,
      feedbacks: [Feedback { states in states.flatMapLatest { _ in signal } }],
      scheduler: ImmediateScheduler.instance
    )
    let value = LockedBox<String?>(nil)
    let subscription = loop.states.subscribe(onNext: { value.value = $0 })
    #expect(value.value == "initial")
    signal.onNext("_a")
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
      reduceInPlace: Self.append,
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

  /// A loop made on another thread, whose feedback sends its event for the first state: the
  /// reducer gets the event, and the consumer sees the initial state and the one after it.
  @Test func test_should_not_miss_delivery_to_reducer_when_started_asynchronously() async {
    let observed = Recorder<String>()
    let subscription = await onOwnThread {
      Observable<String, Never>.system(
        initial: "initial",
        reduceInPlace: Self.append,
        feedbacks: [
          Feedback(start: { context in
            context.states.take(1).map { _ in "_event" }.subscribe(onNext: { context.send($0) })
          })
        ],
        scheduler: ImmediateScheduler.instance
      )
      .subscribe(onNext: { observed.append($0) })
    }
    // The reducer did not miss the feedback's event, and the consumer, attached before the
    // feedbacks start, saw the initial state first.
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
      reduceInPlace: { state, event in
        switch event {
        case .increment: state += 1
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
