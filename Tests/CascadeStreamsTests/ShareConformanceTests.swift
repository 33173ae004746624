import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's share(replay:scope:) cases (ReactiveX/RxSwift,
// Tests/RxSwiftTests/Observable+ShareReplayScopeTests.swift), re-expressed on Cascade's
// `TestScheduler`: the same hot input, subscription schedule, expected events and subscription
// windows, for each replay count RxSwift loops over (0 to 4).
//
// Left out: `test_forever_receivesCorrectElements`, `test_forever_error`, `test_forever_completed`
// and the `.forever` halves of the two resource cases. Cascade's `share(replay:)` has one scope,
// RxSwift's `.whileConnected` (its default): a later subscriber connects afresh with an empty
// buffer. Observable+MulticastTests.swift is for `multicast`, `publish`, `replay`, `refCount`
// and `connect`, which Cascade does not have.
//
// RxSwift's test stream plays events after a terminal one to whoever subscribes later; Cascade's
// `HotObservable` keeps the stream grammar. So the input here is a hot stream of events,
// dematerialized: each subscription ends at the first terminal event it sees, and a later
// subscription gets the events after it, as in RxSwift.
@Suite(.checksResources)
struct ShareConformanceTests {
  typealias Observer = TestableObserver<Int, TestError>

  static let failure = TestError("test")
  let scheduler = TestScheduler()

  /// What each subscriber received, and when the source was subscribed to.
  struct Outcome: Sendable {
    /// Subscribed at 200, disposed at 350.
    let first: Observer
    /// Subscribed at 300, disposed at 400.
    let second: Observer
    /// Subscribed by the first subscriber when its stream ends.
    let firstAgain: Observer
    /// Subscribed by the second subscriber when its stream ends.
    let secondAgain: Observer
    /// Subscribed at 500, disposed at 600.
    let third: Observer
    let source: HotObservable<StreamEvent<Int, TestError>, Never>
  }

  /// Runs RxSwift's schedule on `share(replay:)` of its input: 1 to 5 at 210 to 250, 6 at 320,
  /// `end` at 330 followed by -1 at 340 if given, and 7 at 550.
  func run(replay: Int?, end: StreamEvent<Int, TestError>? = nil) -> Outcome {
    var events: [Recorded<StreamEvent<StreamEvent<Int, TestError>, Never>>] =
      zip([210, 220, 230, 240, 250, 320], 1...6).map { .next(.seconds($0), .next($1)) }
    if let end {
      events += [.next(.seconds(330), end), .next(.seconds(340), .next(-1))]
    }
    events.append(.next(.seconds(550), .next(7)))
    let source = scheduler.createHotObservable(events)
    let shared = LockedBox<Observable<Int, TestError>?>(nil)
    scheduler.schedule(after: .seconds(100)) {
      let xs: Observable<Int, TestError> = source.dematerialize()
      shared.value = replay.map { xs.share(replay: $0) } ?? xs.share()
    }
    let outcome = Outcome(
      first: scheduler.createObserver(Int.self, failure: TestError.self),
      second: scheduler.createObserver(Int.self, failure: TestError.self),
      firstAgain: scheduler.createObserver(Int.self, failure: TestError.self),
      secondAgain: scheduler.createObserver(Int.self, failure: TestError.self),
      third: scheduler.createObserver(Int.self, failure: TestError.self),
      source: source
    )
    let subscriptions = (0..<3).map { _ in LockedBox<(any Disposable)?>(nil) }
    /// Subscribes `observer`, and `again` once its stream ends, in the same slot.
    @Sendable func subscribe(_ observer: Observer, then again: Observer, slot: Int) {
      subscriptions[slot].value = shared.value?.subscribe { event in
        observer.on(event)
        if event.isTerminal {
          subscriptions[slot].value = shared.value?.subscribe(again)
        }
      }
    }
    scheduler.schedule(after: .seconds(200)) {
      subscribe(outcome.first, then: outcome.firstAgain, slot: 0)
    }
    scheduler.schedule(after: .seconds(300)) {
      subscribe(outcome.second, then: outcome.secondAgain, slot: 1)
    }
    scheduler.schedule(after: .seconds(350)) { subscriptions[0].value?.dispose() }
    scheduler.schedule(after: .seconds(400)) { subscriptions[1].value?.dispose() }
    scheduler.schedule(after: .seconds(500)) {
      subscriptions[2].value = shared.value?.subscribe(outcome.third)
    }
    scheduler.schedule(after: .seconds(600)) { subscriptions[2].value?.dispose() }
    scheduler.run()
    return outcome
  }

  static let firstValues: [Recorded<StreamEvent<Int, TestError>>] =
    zip([210, 220, 230, 240, 250, 320], 1...6).map { .next(.seconds($0), $1) }

  /// The latest `replay` of 1 to 5, replayed at 300 to the second subscriber.
  static func replayed(_ replay: Int) -> [Recorded<StreamEvent<Int, TestError>>] {
    (0..<replay).map { .next(.seconds(300), 6 - replay + $0) }
  }

  func windows(_ times: (Int, Int)...) -> [SubscriptionWindow] {
    times.map { SubscriptionWindow(.seconds($0.0), .seconds($0.1)) }
  }

  // RxSwift: test_testDefaultArguments (`share()`, no replay)
  @Test func defaultArguments() {
    let outcome = run(replay: nil)
    outcome.first.assertEvents(Self.firstValues)
    outcome.second.assertEvents([.next(.seconds(320), 6)])
    outcome.third.assertEvents([.next(.seconds(550), 7)])
    outcome.source.assertSubscriptions(windows((200, 400), (500, 600)))
  }

  // RxSwift: test_whileConnected_receivesCorrectElements. The third subscriber connects afresh,
  // with an empty buffer.
  @Test(arguments: 0..<5)
  func whileConnectedReceivesCorrectElements(replay: Int) {
    let outcome = run(replay: replay)
    outcome.first.assertEvents(Self.firstValues)
    outcome.second.assertEvents(Self.replayed(replay) + [.next(.seconds(320), 6)])
    outcome.third.assertEvents([.next(.seconds(550), 7)])
    outcome.source.assertSubscriptions(windows((200, 400), (500, 600)))
  }

  // RxSwift: test_whileConnected_error, test_whileConnected_completed. A subscriber that
  // subscribes again when the stream ends connects afresh.
  @Test(arguments: 0..<5, [false, true])
  func whileConnectedTerminalEvent(replay: Int, fails: Bool) {
    let end: StreamEvent<Int, TestError> = fails ? .error(Self.failure) : .completed
    let terminal = Recorded(time: .seconds(330), value: end)
    let outcome = run(replay: replay, end: end)
    outcome.first.assertEvents(Self.firstValues + [terminal])
    outcome.firstAgain.assertEvents([.next(.seconds(340), -1)])
    outcome.secondAgain.assertEvents([.next(.seconds(340), -1)])
    outcome.second.assertEvents(
      Self.replayed(replay) + [.next(.seconds(320), 6), terminal]
    )
    outcome.third.assertEvents([.next(.seconds(550), 7)])
    outcome.source.assertSubscriptions(windows((200, 330), (330, 400), (500, 600)))
  }

  // RxSwift: testReleasesResourcesOnComplete, testReleasesResourcesOnError (their
  // `.whileConnected` halves). The suite's resource check fails if anything is left alive.
  @Test(arguments: 0..<5)
  func releasesEverythingOnCompletionAndFailure(replay: Int) {
    let completed = Recorder<StreamEvent<Int, TestError>>()
    Observable<Int, TestError>.just(1).share(replay: replay).subscribe { completed.append($0) }
    let failed = Recorder<StreamEvent<Int, TestError>>()
    Observable<Int, TestError>.error(Self.failure).share(replay: replay)
      .subscribe { failed.append($0) }
    #expect(completed.values == [.next(1), .completed])
    #expect(failed.values == [.error(Self.failure)])
  }
}
