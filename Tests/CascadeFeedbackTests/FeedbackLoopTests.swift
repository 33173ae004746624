import CascadeFeedback
import CascadeMiddleware
import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct FeedbackLoopTests {
  enum Event: Sendable, Equatable { case increment, decrement }

  // The README's increment example: UI events fed in by input feedbacks.
  @Test func incrementExample() async {
    let plus = PublishSubject<Void, Never>()
    let minus = PublishSubject<Void, Never>()
    let loop = FeedbackLoop<Int, Event>(
      initialState: 0,
      reduce: { count, event in
        switch event {
        case .increment: count + 1
        case .decrement: count - 1
        }
      },
      feedbacks: [.input(plus.map { .increment }), .input(minus.map { .decrement })],
      scheduler: ImmediateScheduler.instance
    )
    let texts = Recorder<String>()
    let subscription = loop.states.map(String.init).subscribe(onNext: { texts.append($0) })
    plus.onNext()
    plus.onNext()
    minus.onNext()
    #expect(texts.values == ["0", "1", "2", "1"])
    subscription.dispose()
    await loop.shutdown()
  }

  // The increment example on virtual time, with the taps at given times.
  @Test func incrementExampleOnVirtualTime() async {
    let scheduler = TestScheduler()
    let plus = scheduler.createHotObservable([.next(.seconds(1), ()), .next(.seconds(2), ())])
    let minus = scheduler.createHotObservable([.next(.seconds(3), ())])
    let loop = FeedbackLoop<Int, Event>(
      initialState: 0,
      reduce: { count, event in event == .increment ? count + 1 : count - 1 },
      feedbacks: [.input(plus.map { .increment }), .input(minus.map { .decrement })],
      scheduler: scheduler
    )
    scheduler.recordStates(of: loop).assertEvents([
      .next(.zero, 0), .next(.seconds(1), 1), .next(.seconds(2), 2), .next(.seconds(3), 1),
    ])
    await loop.shutdown()
  }

  // MARK: - AT-23: reentrancy and ordering

  // AT-23: states [0, 1, 3, 6], the reducer saw [1, 2, 3], and a feedback reacting to states
  // sees each exactly once, in order.
  @Test func eventsAndStatesInOrder() async {
    let inputs = PublishSubject<Int, Never>()
    let reduced = Recorder<Int>()
    let seen = Recorder<Int>()
    let loop = FeedbackLoop<Int, Int>(
      initialState: 0,
      reduce: { total, value in
        reduced.append(value)
        return total + value
      },
      feedbacks: [
        .input(inputs),
        Feedback { states in
          states.do(onNext: { seen.append($0) }).filter { _ in false }.map { $0 }.asObservable()
        },
      ],
      scheduler: ImmediateScheduler.instance
    )
    for value in 1...3 { inputs.onNext(value) }
    #expect(reduced.values == [1, 2, 3])
    #expect(seen.values == [0, 1, 3, 6])
    await loop.shutdown()
  }

  /// A sum that remembers the event that produced it.
  struct Sum: Sendable, Equatable {
    var total = 0
    var lastEvent: Int?
  }

  struct Pair: Sendable, Equatable {
    let state: Int
    let event: Int?
  }

  // AT-23: with an input feedback and a feedback reacting to (state, event) pairs, inputs 1, 2, 3
  // give the states [0, 1, 3, 6], and the feedback sees (0, nil), (1, 1), (3, 2), (6, 3).
  @Test func feedbackSeesStateAndEventPairs() async {
    let inputs = PublishSubject<Int, Never>()
    let reduced = Recorder<Int>()
    let pairs = Recorder<Pair>()
    let loop = FeedbackLoop<Sum, Int>(
      initialState: Sum(),
      reduceInPlace: { sum, value in
        reduced.append(value)
        sum.total += value
        sum.lastEvent = value
      },
      feedbacks: [
        .input(inputs),
        Feedback { states in
          states.map { Pair(state: $0.total, event: $0.lastEvent) }
            .do(onNext: { pairs.append($0) })
            .ignoreElements()
            .map { _ in 0 }
            .asObservable()
        },
      ],
      scheduler: ImmediateScheduler.instance
    )
    let states = Recorder<Int>()
    let subscription = loop.states.subscribe(onNext: { states.append($0.total) })
    for value in 1...3 { inputs.onNext(value) }
    #expect(states.values == [0, 1, 3, 6])
    #expect(reduced.values == [1, 2, 3])
    #expect(
      pairs.values == [
        Pair(state: 0, event: nil), Pair(state: 1, event: 1), Pair(state: 3, event: 2),
        Pair(state: 6, event: 3),
      ]
    )
    subscription.dispose()
    await loop.shutdown()
  }

  // AT-23: a feedback that emits synchronously while the state is delivered: the event is
  // reduced after the delivery, against the state that triggered it.
  @Test func synchronousFeedbackIsQueued() async {
    let seen = Recorder<Int>()
    let loop = FeedbackLoop<Int, Int>(
      initialState: 0,
      reduce: { count, amount in count + amount },
      feedbacks: [
        Feedback(skippingRepeated: { $0 < 5 ? $0 : nil }) { count in Observable.just(1) },
        Feedback(start: { context in context.states.subscribe(onNext: { seen.append($0) }) }),
      ],
      scheduler: ImmediateScheduler.instance
    )
    #expect(loop.currentState == 5)
    // The second feedback saw every state, in order, though the first emitted while they were
    // being delivered.
    #expect(seen.values == [0, 1, 2, 3, 4, 5])
    await loop.shutdown()
  }

  // AT-23: a feedback that synchronously subscribes to the loop's own state stream, while a
  // state is being delivered to it, does not deadlock, and sees the states that follow.
  @Test(.timeLimit(.minutes(5))) func feedbackSubscribingToTheLoopDoesNotDeadlock() async {
    let box = LockedBox<FeedbackLoop<Int, Int>?>(nil)
    let inner = LockedBox<(any Disposable)?>(nil)
    let seen = Recorder<Int>()
    let loop = FeedbackLoop<Int, Int>(
      initialState: 0,
      reduce: { count, amount in count + amount },
      feedbacks: [
        Feedback(start: { context in
          context.states.subscribe(onNext: { state in
            guard state == 1, let loop = box.value else { return }
            // Inside the delivery of state 1: subscribe to the loop's states and read them.
            inner.value = loop.states.subscribe(onNext: { seen.append($0) })
            _ = loop.currentState
            context.send(10)
          })
        })
      ],
      scheduler: ImmediateScheduler.instance
    )
    box.value = loop
    loop.send(1)
    loop.send(100)
    #expect(loop.currentState == 111)
    #expect(seen.values == [1, 11, 111])
    inner.value?.dispose()
    box.value = nil
    await loop.shutdown()
  }

  // AT-23: an event sent while the feedbacks are starting is reduced, after every feedback has
  // seen the initial state.
  @Test func eventSentWhileFeedbacksStartIsReduced() async {
    let first = Recorder<Int>()
    let last = Recorder<Int>()
    let loop = FeedbackLoop<Int, Int>(
      initialState: 0,
      reduce: { count, amount in count + amount },
      feedbacks: [
        Feedback(start: { context in context.states.subscribe(onNext: { first.append($0) }) }),
        Feedback(start: { context in
          context.send(1)
          return Disposables.empty
        }),
        Feedback(start: { context in context.states.subscribe(onNext: { last.append($0) }) }),
      ],
      scheduler: ImmediateScheduler.instance
    )
    #expect(loop.currentState == 1)
    #expect(first.values == [0, 1])
    #expect(last.values == [0, 1])
    await loop.shutdown()
  }

  // AT-23: two immediate feedbacks alternate deterministically (ReactiveFeedback's
  // `test_reduce_with_two_immediate_feedback_loops`).
  @Test func twoImmediateFeedbacksAlternate() async {
    let states = Recorder<String>()
    let loop = FeedbackLoop<String, String>(
      initialState: "initial",
      reduce: { state, event in state + event },
      feedbacks: [
        Feedback { states in
          states.filter { !$0.hasSuffix("_a") && $0.count < 15 }.map { _ in "_a" }.asObservable()
        },
        Feedback { states in
          states.filter { $0.hasSuffix("_a") }.map { _ in "_b" }.asObservable()
        },
      ],
      scheduler: ImmediateScheduler.instance
    )
    let subscription = loop.states.subscribe(onNext: { states.append($0) })
    #expect(loop.currentState == "initial_a_b_a_b")
    #expect(states.values == ["initial_a_b_a_b"])
    loop.send("!")
    #expect(loop.currentState == "initial_a_b_a_b!")
    subscription.dispose()
    await loop.shutdown()
  }

  // AT-23: the same two feedbacks, driven from a state stream observed from the start: every
  // intermediate state, in order.
  @Test func twoImmediateFeedbacksProduceEveryState() async {
    let seen = Recorder<String>()
    let loop = FeedbackLoop<String, String>(
      initialState: "initial",
      reduce: { state, event in state + event },
      feedbacks: [
        Feedback(start: { context in context.states.subscribe(onNext: { seen.append($0) }) }),
        Feedback(skippingRepeated: { $0.hasSuffix("_a") || $0.count >= 14 ? nil : $0 }) { _ in
          Observable.just("_a")
        },
        Feedback(skippingRepeated: { $0.hasSuffix("_a") ? $0 : nil }) { _ in
          Observable.just("_b")
        },
      ],
      scheduler: ImmediateScheduler.instance
    )
    #expect(
      seen.values == [
        "initial", "initial_a", "initial_a_b", "initial_a_b_a", "initial_a_b_a_b",
      ]
    )
    await loop.shutdown()
  }

  // MARK: - AT-31: teardown

  // AT-31: releasing the loop with a never-ending async effect and a stream effect in flight:
  // both observe cancellation, the loop is freed, the state stream completes, and nothing is
  // delivered afterwards.
  @Test func releasingTheLoopCancelsEffectsInFlight() async {
    let started = Counter()
    let cancelled = Counter()
    let escaped = LockedBox<AnyObserver<Int, Never>?>(nil)
    var loop: FeedbackLoop<Int, Int>? = FeedbackLoop(
      initialState: 0,
      reduce: { count, amount in count + amount },
      feedbacks: [
        Feedback(predicate: { _ in true }) { _, _ in
          await withTaskCancellationHandler {
            started.increment()
            // The work: it runs until cancelled.
            try? await suspendUntilCancelled()
          } onCancel: {
            cancelled.increment()
          }
        },
        Feedback(predicate: { _ in true }) { _ in
          Observable<Int, Never>.create { observer in
            escaped.value = observer
            return Disposables.create { cancelled.increment() }
          }
        },
      ],
      scheduler: ImmediateScheduler.instance
    )
    weak let weakLoop = loop
    let states = Recorder<Int>()
    let completions = Counter()
    let subscription = loop?.states.subscribe(
      onNext: { states.append($0) },
      onCompleted: { completions.increment() }
    )
    escaped.value?.onNext(1)
    // The effect runs, inside its cancellation handler.
    #expect(await started.wait { $0 == 1 })
    #expect(cancelled.value == 0)

    loop = nil

    #expect(weakLoop == nil)
    #expect(await cancelled.wait { $0 == 2 })
    escaped.value?.onNext(5)
    #expect(states.values == [0, 1])
    #expect(completions.value == 1)
    escaped.value = nil
    subscription?.dispose()
  }

  // AT-31: `stop()` cancels the effects in flight; events they had emitted but that were not yet
  // reduced are dropped, and nothing is delivered after it returns.
  @Test func stopCancelsEffectsAndDeliversNothingAfter() async {
    let scheduler = TestScheduler()
    let cancelled = Counter()
    let loop = FeedbackLoop<Int, Int>(
      initialState: 0,
      reduce: { count, amount in count + amount },
      feedbacks: [
        Feedback(predicate: { _ in true }) { _ in
          Observable<Int, Never>.interval(.seconds(1), scheduler: scheduler)
            .map { _ in 1 }
            .do(onDispose: { cancelled.increment() })
        }
      ],
      scheduler: ImmediateScheduler.instance
    )
    let states = Recorder<Int>()
    let completions = Counter()
    let subscription = loop.states.subscribe(
      onNext: { states.append($0) },
      onCompleted: { completions.increment() }
    )
    await scheduler.advance(by: .seconds(2))
    await loop.shutdown()
    #expect(cancelled.value == 1)
    await scheduler.advance(by: .seconds(5))
    #expect(states.values == [0, 1, 2])
    #expect(completions.value == 1)
    #expect(loop.currentState == 2)
    subscription.dispose()
  }

  // MARK: - Middleware

  struct Seen: Sendable, Equatable {
    let event: Event
    let before: Int?
    let after: Int
    let time: Duration
  }

  // A middleware attached with `middlewares:` sees each event with the state before and after,
  // at the loop's scheduler time, and its dispatches are queued behind the current event.
  @Test func middlewareSeesEachEventAndResultingState() async {
    let scheduler = TestScheduler()
    let seen = Recorder<Seen>()
    let recording = ClosureMiddleware<Event, Int>(wantsStateBefore: true) { record in
      seen.append(
        Seen(
          event: record.input,
          before: record.stateBefore,
          after: record.state,
          time: record.time.offset
        )
      )
      // Decrement back whenever the count reaches 2.
      if record.state == 2 { record.dispatcher.dispatch(.decrement) }
    }
    let loop = FeedbackLoop<Int, Event>(
      initialState: 0,
      reduce: { count, event in event == .increment ? count + 1 : count - 1 },
      feedbacks: [],
      scheduler: scheduler,
      // The decrement is reduced at the same virtual time as the second increment: the
      // assertion follows every state, not the latest.
      deliversEveryState: true,
      middlewares: [recording]
    )
    scheduler.assertStates(
      of: loop,
      events: [.next(.seconds(1), .increment), .next(.seconds(2), .increment)],
      equal: [0, 1, 2, 1]
    )
    #expect(
      seen.values == [
        Seen(event: .increment, before: 0, after: 1, time: .seconds(1)),
        Seen(event: .increment, before: 1, after: 2, time: .seconds(2)),
        Seen(event: .decrement, before: 2, after: 1, time: .seconds(2)),
      ]
    )
    await loop.shutdown()
  }

  // AT-26 with middleware: an event dropped because its effect was cancelled is never reduced,
  // so no middleware sees it, neither before nor after.
  @Test func middlewareNeverSeesDroppedEvents() async {
    enum Step: Sendable, Equatable {
      case query(Int)
      case result(Int)
    }
    let intercepted = Recorder<Step>()
    let processed = Recorder<Step>()
    let middleware = ClosureMiddleware<Step, Int>(
      intercept: { step, _ in
        intercepted.append(step)
        return step
      },
      process: { processed.append($0.input) }
    )
    let results = PublishSubject<Int, Never>()
    let fired = LockedBox(false)
    let loop = FeedbackLoop<Int, Step>(
      initialState: 0,
      reduce: { query, step in
        if case .query(let new) = step { return new }
        return query
      },
      feedbacks: [
        // On query 2, the effect for query 1 emits; its event is queued, then cancelled.
        Feedback(start: { context in
          context.states.subscribe(onNext: { query in
            guard query == 2, !fired.value else { return }
            fired.value = true
            results.onNext(1)
          })
        }),
        Feedback(skippingRepeated: { $0 == 0 ? nil : $0 }) { query in
          results.filter { $0 == query }.map { Step.result($0) }
        },
      ],
      scheduler: ImmediateScheduler.instance,
      middlewares: [middleware]
    )
    loop.send(.query(1))
    loop.send(.query(2))
    results.onNext(2)
    #expect(processed.values == [.query(1), .query(2), .result(2)])
    #expect(intercepted.values == [.query(1), .query(2), .result(2)])
    await loop.shutdown()
  }
}
