import CascadeFeedback
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// Counts the starts and cancellations of an effect, and keeps the observer of its latest run so
/// a test can emit from it late.
final class EffectProbe<Value: Sendable, Event: Sendable>: Sendable {
  let started = Recorder<Value>()
  let cancelled = Recorder<Value>()
  let latest = LockedBox<AnyObserver<Event, Never>?>(nil)

  /// An effect that never ends by itself: it records its start with `value`, and its
  /// cancellation.
  func effect(_ value: Value) -> Observable<Event, Never> {
    Observable.create { observer in
      self.started.append(value)
      self.latest.value = observer
      return Disposables.create { self.cancelled.append(value) }
    }
  }
}

@Suite(.checksResources)
struct FeedbackEffectsTests {
  // MARK: - Predicate

  struct Toggle: Sendable, Equatable {
    var isOn = false
    var ticks = 0
    var other = 0
  }

  enum ToggleEvent: Sendable, Equatable { case on, off, tick, other }

  static func reduce(_ state: inout Toggle, _ event: ToggleEvent) {
    switch event {
    case .on: state.isOn = true
    case .off: state.isOn = false
    case .tick: state.ticks += 1
    case .other: state.other += 1
    }
  }

  // AT-28: a predicate true → false → true cancels the effect, then starts it afresh; states for
  // which it still holds do not restart it; the cancelled run's late outputs are ignored.
  @Test func predicateStartsCancelsAndRestarts() async {
    let probe = EffectProbe<Int, ToggleEvent>()
    let loop = FeedbackLoop<Toggle, ToggleEvent>(
      initialState: Toggle(),
      reduceInPlace: Self.reduce,
      feedbacks: [Feedback(predicate: \.isOn) { state in probe.effect(state.other) }],
      scheduler: ImmediateScheduler.instance
    )
    #expect(probe.started.values == [])

    loop.send(.on)
    #expect(probe.started.values == [0])
    loop.send(.other)
    probe.latest.value?.onNext(.tick)
    #expect(probe.started.values == [0])
    #expect(loop.currentState.ticks == 1)

    let firstRun = probe.latest.value
    loop.send(.off)
    #expect(probe.cancelled.values == [0])
    firstRun?.onNext(.tick)
    #expect(loop.currentState.ticks == 1)

    loop.send(.other)
    loop.send(.on)
    #expect(probe.started.values == [0, 2])
    #expect(probe.cancelled.values == [0])

    await loop.shutdown()
    #expect(probe.cancelled.values == [0, 2])
    probe.latest.value = nil
  }

  // AT-28: an initial state that already satisfies the predicate starts the effect at once.
  @Test func predicateHoldingInitiallyStartsAtOnce() async {
    let loop = FeedbackLoop<Toggle, ToggleEvent>(
      initialState: Toggle(isOn: true),
      reduceInPlace: Self.reduce,
      feedbacks: [Feedback(predicate: \.isOn) { _ in Observable.just(.tick) }],
      scheduler: ImmediateScheduler.instance
    )
    #expect(loop.currentState.ticks == 1)
    await loop.shutdown()
  }

  // MARK: - Query

  struct Search: Sendable, Equatable {
    var query: String?
    var results: [String] = []
    var other = 0
  }

  enum SearchEvent: Sendable, Equatable {
    case type(String?)
    case found(String)
    case other
  }

  static func reduce(_ state: inout Search, _ event: SearchEvent) {
    switch event {
    case .type(let query): state.query = query
    case .found(let result): state.results.append(result)
    case .other: state.other += 1
    }
  }

  // AT-28: nil → no effect; q → exactly one start; the same q again → no restart; q → nil →
  // cancelled, late outputs ignored; q reappears → a fresh start.
  @Test func queryEffectLifecycle() async {
    let probe = EffectProbe<String, SearchEvent>()
    let loop = FeedbackLoop<Search, SearchEvent>(
      initialState: Search(),
      reduceInPlace: Self.reduce,
      feedbacks: [Feedback(skippingRepeated: \.query) { query in probe.effect(query) }],
      scheduler: ImmediateScheduler.instance
    )
    loop.send(.other)
    #expect(probe.started.values == [])

    loop.send(.type("q"))
    #expect(probe.started.values == ["q"])
    loop.send(.other)
    loop.send(.type("q"))
    probe.latest.value?.onNext(.found("q1"))
    #expect(probe.started.values == ["q"])
    #expect(probe.cancelled.values == [])
    #expect(loop.currentState.results == ["q1"])

    let firstRun = probe.latest.value
    loop.send(.type(nil))
    #expect(probe.cancelled.values == ["q"])
    firstRun?.onNext(.found("late"))
    #expect(loop.currentState.results == ["q1"])

    loop.send(.type("q"))
    #expect(probe.started.values == ["q", "q"])
    loop.send(.type("r"))
    #expect(probe.started.values == ["q", "q", "r"])
    #expect(probe.cancelled.values == ["q", "q"])

    await loop.shutdown()
    #expect(probe.cancelled.values == ["q", "q", "r"])
    probe.latest.value = nil
  }

  // AT-28: an initial query starts its effect at once.
  @Test func initialQueryStartsAtOnce() async {
    let loop = FeedbackLoop<Search, SearchEvent>(
      initialState: Search(query: "swift"),
      reduceInPlace: Self.reduce,
      feedbacks: [
        Feedback(skippingRepeated: \.query) { query in Observable.just(.found(query)) }
      ],
      scheduler: ImmediateScheduler.instance
    )
    #expect(loop.currentState.results == ["swift"])
    await loop.shutdown()
  }

  // AT-24: an effect whose output is scheduled at 2 s, cancelled by a query change processed at
  // 1 s: its output is never reduced, however long the clock runs.
  @Test func cancellationIsABarrierOnVirtualTime() async {
    let scheduler = TestScheduler()
    let loop = FeedbackLoop<Search, SearchEvent>(
      initialState: Search(),
      reduceInPlace: Self.reduce,
      feedbacks: [
        Feedback(skippingRepeated: \.query) { query in
          Observable.just(SearchEvent.found(query)).delay(.seconds(2), scheduler: scheduler)
        }
      ],
      scheduler: scheduler
    )
    scheduler.assertStates(
      of: loop,
      events: [
        .next(.zero, .type("load")), .next(.seconds(1), .type("other")),
        .next(.seconds(10), .type(nil)),
      ],
      equal: [
        Search(),
        Search(query: "load"),
        Search(query: "other"),
        Search(query: "other", results: ["other"]),
        Search(query: nil, results: ["other"]),
      ]
    )
    await loop.shutdown()
  }

  // AT-24: the same barrier when the query goes to nil: the effect in flight is cancelled and
  // nothing replaces it.
  @Test func cancellationToNilIsABarrier() async {
    let scheduler = TestScheduler()
    let loop = FeedbackLoop<Search, SearchEvent>(
      initialState: Search(),
      reduceInPlace: Self.reduce,
      feedbacks: [
        Feedback(skippingRepeated: \.query) { query in
          Observable.just(SearchEvent.found(query)).delay(.seconds(2), scheduler: scheduler)
        }
      ],
      scheduler: scheduler
    )
    scheduler.assertStates(
      of: loop,
      events: [.next(.zero, .type("load")), .next(.seconds(1), .type(nil))],
      equal: [Search(), Search(query: "load"), Search()]
    )
    #expect(scheduler.now == SchedulerInstant(offset: .seconds(1)))
    await loop.shutdown()
  }

  // AT-25: queries a → ab → abc within 100 ms, responses arriving abc, a, ab: only abc's results
  // are reduced.
  @Test func onlyTheLatestResultIsUsed() async {
    let scheduler = TestScheduler()
    let latency = [
      "a": Duration.milliseconds(250), "ab": .milliseconds(300), "abc": .milliseconds(50),
    ]
    let loop = FeedbackLoop<Search, SearchEvent>(
      initialState: Search(),
      reduceInPlace: Self.reduce,
      feedbacks: [
        Feedback(skippingRepeated: \.query) { query in
          Observable.just(SearchEvent.found(query)).delay(latency[query]!, scheduler: scheduler)
        }
      ],
      scheduler: scheduler
    )
    let states = scheduler.recordStates(
      of: loop,
      events: [
        .next(.zero, .type("a")), .next(.milliseconds(50), .type("ab")),
        .next(.milliseconds(100), .type("abc")),
      ]
    )
    #expect(states.values.last == Search(query: "abc", results: ["abc"]))
    #expect(states.events.last?.time == .milliseconds(150))
    await loop.shutdown()
  }

  // AT-26: an effect's event emitted while a state is being delivered, and so queued, is dropped
  // when the same delivery cancels the effect (the query changed).
  @Test func queuedEventsOfACancelledEffectAreDropped() async {
    let results = PublishSubject<String, Never>()
    let fired = LockedBox(false)
    let loop = FeedbackLoop<Search, SearchEvent>(
      initialState: Search(),
      reduceInPlace: Self.reduce,
      feedbacks: [
        // Sees each state before the query feedback: on "b", makes the effect for "a" emit.
        Feedback(start: { context in
          context.states.subscribe(onNext: { state in
            guard state.query == "b", !fired.value else { return }
            fired.value = true
            results.onNext("a")
          })
        }),
        Feedback(skippingRepeated: \.query) { query in
          results.filter { $0 == query }.map { SearchEvent.found($0) }
        },
      ],
      scheduler: ImmediateScheduler.instance
    )
    loop.send(.type("a"))
    loop.send(.type("b"))
    #expect(fired.value)
    #expect(loop.currentState.results == [])
    results.onNext("b")
    #expect(loop.currentState.results == ["b"])
    await loop.shutdown()
  }

  // Normal completion of an effect is not cancellation: what it emitted is reduced, and the next
  // change of query starts a new one.
  @Test func completedEffectKeepsItsEvents() async {
    let loop = FeedbackLoop<Search, SearchEvent>(
      initialState: Search(),
      reduceInPlace: Self.reduce,
      feedbacks: [
        Feedback(skippingRepeated: \.query) { query in
          Observable.from([SearchEvent.found(query + "1"), .found(query + "2")])
        }
      ],
      scheduler: ImmediateScheduler.instance
    )
    loop.send(.type("a"))
    loop.send(.type("b"))
    #expect(loop.currentState.results == ["a1", "a2", "b1", "b2"])
    await loop.shutdown()
  }

  // MARK: - Keyed requests

  struct Downloads: Sendable, Equatable {
    var requests: [String: Int] = [:]
    var log: [String] = []
  }

  enum DownloadEvent: Sendable, Equatable {
    case set(String, Int?)
    case progress(String, Int)
  }

  static func reduce(_ state: inout Downloads, _ event: DownloadEvent) {
    switch event {
    case .set(let key, let request): state.requests[key] = request
    case .progress(let key, let request): state.log.append("\(key):\(request)")
    }
  }

  // Keyed requests with overlapping keys: a new key starts an effect, a changed request under the
  // same key reaches the running effect without restarting it, a vanished key cancels its effect
  // (its teardown runs), and effects of different keys run together.
  @Test func keyedRequestsStartUpdateAndCancelPerKey() async {
    let starts = Recorder<String>()
    let teardowns = Recorder<String>()
    let running = Counter()
    let peak = LockedBox(0)
    let loop = FeedbackLoop<Downloads, DownloadEvent>(
      initialState: Downloads(),
      reduceInPlace: Self.reduce,
      feedbacks: [
        Feedback(requests: \.requests) { key, requests in
          Observable<DownloadEvent, Never>.create { observer in
            starts.append(key)
            let now = running.increment()
            peak.value = max(peak.value, now)
            let subscription = requests.subscribe(onNext: { request in
              observer.onNext(.progress(key, request))
            })
            return Disposables.create {
              subscription.dispose()
              running.decrement()
              teardowns.append(key)
            }
          }
        }
      ],
      scheduler: ImmediateScheduler.instance
    )
    loop.send(.set("a", 1))
    loop.send(.set("b", 1))
    #expect(starts.values == ["a", "b"])
    #expect(running.value == 2)

    loop.send(.set("a", 2))
    loop.send(.set("a", 2))
    #expect(starts.values == ["a", "b"])
    #expect(loop.currentState.log == ["a:1", "b:1", "a:2"])

    loop.send(.set("a", nil))
    #expect(teardowns.values == ["a"])
    #expect(running.value == 1)
    loop.send(.set("b", 5))
    #expect(loop.currentState.log == ["a:1", "b:1", "a:2", "b:5"])

    loop.send(.set("a", 3))
    #expect(starts.values == ["a", "b", "a"])
    #expect(loop.currentState.log == ["a:1", "b:1", "a:2", "b:5", "a:3"])
    #expect(peak.value == 2)

    await loop.shutdown()
    #expect(Set(teardowns.values) == ["a", "b"])
    #expect(teardowns.values.count == 3)
    #expect(running.value == 0)
  }

  // AT-26 for keys: an event a key's effect emitted that is still queued when the key vanishes is
  // dropped.
  @Test func queuedEventsOfAVanishedKeyAreDropped() async {
    let ticks = PublishSubject<String, Never>()
    let fired = LockedBox(false)
    let loop = FeedbackLoop<Downloads, DownloadEvent>(
      initialState: Downloads(),
      reduceInPlace: Self.reduce,
      feedbacks: [
        Feedback(start: { context in
          context.states.subscribe(onNext: { state in
            guard state.requests["a"] == nil, state.requests["b"] != nil, !fired.value else {
              return
            }
            fired.value = true
            ticks.onNext("a")
            ticks.onNext("b")
          })
        }),
        Feedback(requests: \.requests) { key, _ in
          ticks.filter { $0 == key }.map { DownloadEvent.progress($0, 0) }
        },
      ],
      scheduler: ImmediateScheduler.instance
    )
    loop.send(.set("a", 1))
    loop.send(.set("b", 1))
    loop.send(.set("a", nil))
    #expect(fired.value)
    #expect(loop.currentState.log == ["b:0"])
    await loop.shutdown()
  }

  // The set form: one effect per request, cancelled when the request leaves the set.
  @Test func setOfRequestsRunsOneEffectEach() async {
    let probe = EffectProbe<Int, DownloadEvent>()
    let loop = FeedbackLoop<Downloads, DownloadEvent>(
      initialState: Downloads(),
      reduceInPlace: Self.reduce,
      feedbacks: [
        Feedback(requests: { Set($0.requests.keys.compactMap(Int.init)) }) { request in
          probe.effect(request)
        }
      ],
      scheduler: ImmediateScheduler.instance
    )
    loop.send(.set("1", 0))
    loop.send(.set("2", 0))
    loop.send(.set("1", 7))
    #expect(probe.started.values == [1, 2])
    loop.send(.set("1", nil))
    #expect(probe.cancelled.values == [1])
    await loop.shutdown()
    #expect(probe.cancelled.values == [1, 2])
    probe.latest.value = nil
  }
}
