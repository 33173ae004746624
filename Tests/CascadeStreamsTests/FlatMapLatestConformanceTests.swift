import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's switchLatest and flatMapLatest cases (ReactiveX/RxSwift,
// Tests/RxSwiftTests/Observable+SwitchTests.swift), re-expressed on Cascade's `TestScheduler`:
// the same hot outer stream, cold inner streams, times, expected events and subscription
// windows. RxSwift writes each marble case twice, once with a stream of streams and
// `switchLatest()`, once with indices and `flatMapLatest`; here each runs in both forms of `Form`.
//
// Left out: `testFlatMapLatest_SelectorThrows`, whose selector throws. Cascade's `flatMapLatest`
// takes a selector that cannot throw: a stream's failures are typed, and a selector that can fail
// returns a stream that fails.
@Suite(.checksResources)
struct FlatMapLatestConformanceTests {
  typealias Inner = ColdObservable<Int, TestError>

  /// A stream of streams.
  typealias Streams = Observable<Observable<Int, TestError>, TestError>

  static let failure = TestError("test")
  let scheduler = TestScheduler()

  /// The two spellings of each marble case: RxSwift's `testSwitch_…` and `testFlatMapLatest_…`.
  enum Form: CaseIterable, Sendable {
    case switchLatest
    case flatMapLatest
  }

  /// RxSwift's three inner streams; the second fails at 50 instead of completing if
  /// `secondFails`.
  func inners(secondFails: Bool = false) -> [Inner] {
    [
      scheduler.createColdObservable([
        .next(.seconds(10), 101), .next(.seconds(20), 102), .next(.seconds(110), 103),
        .next(.seconds(120), 104), .next(.seconds(210), 105), .next(.seconds(220), 106),
        .completed(.seconds(230)),
      ]),
      scheduler.createColdObservable([
        .next(.seconds(10), 201), .next(.seconds(20), 202), .next(.seconds(30), 203),
        .next(.seconds(40), 204),
        secondFails ? .error(.seconds(50), Self.failure) : .completed(.seconds(50)),
      ]),
      scheduler.createColdObservable([
        .next(.seconds(10), 301), .next(.seconds(20), 302), .next(.seconds(30), 303),
        .next(.seconds(40), 304), .completed(.seconds(150)),
      ]),
    ]
  }

  /// Runs the case: the outer stream emits the inner streams at 300, 400 and 500 (as many as
  /// `inners` holds), then `end` at `endTime`.
  func run(
    _ form: Form,
    _ inners: [Inner],
    end: StreamEvent<Int, TestError>,
    at endTime: Int
  ) -> (TestableObserver<Int, TestError>, any TestableObservable) {
    let times = [300, 400, 500]
    switch form {
    case .switchLatest:
      let terminal: StreamEvent<Inner, TestError> = end.map { _ in inners[0] }
      let xs = scheduler.createHotObservable(
        zip(times, inners).map { .next(.seconds($0), $1) }
          + [Recorded(time: .seconds(endTime), value: terminal)]
      )
      return (scheduler.start { xs.switchLatest() }, xs)
    case .flatMapLatest:
      let terminal: StreamEvent<Int, TestError> = end
      let xs = scheduler.createHotObservable(
        zip(times, inners.indices).map { .next(.seconds($0), $1) }
          + [Recorded(time: .seconds(endTime), value: terminal)]
      )
      return (scheduler.start { xs.flatMapLatest { inners[$0] } }, xs)
    }
  }

  func window(_ subscribed: Int, _ disposed: Int) -> [SubscriptionWindow] {
    [SubscriptionWindow(.seconds(subscribed), .seconds(disposed))]
  }

  static let valuesUntil450: [Recorded<StreamEvent<Int, TestError>>] = [
    .next(.seconds(310), 101), .next(.seconds(320), 102), .next(.seconds(410), 201),
    .next(.seconds(420), 202), .next(.seconds(430), 203), .next(.seconds(440), 204),
  ]

  // RxSwift: testSwitch_Data, testFlatMapLatest_Data
  @Test(arguments: Form.allCases)
  func eachNewInnerStreamReplacesThePrevious(_ form: Form) {
    let inners = inners()
    let (observer, xs) = run(form, inners, end: .completed, at: 600)
    observer.assertEvents(
      Self.valuesUntil450 + [
        .next(.seconds(510), 301), .next(.seconds(520), 302), .next(.seconds(530), 303),
        .next(.seconds(540), 304), .completed(.seconds(650)),
      ]
    )
    xs.assertSubscriptions(window(200, 600))
    inners[0].assertSubscriptions(window(300, 400))
    inners[1].assertSubscriptions(window(400, 450))
    inners[2].assertSubscriptions(window(500, 650))
  }

  // RxSwift: testSwitch_InnerThrows, testFlatMapLatest_InnerThrows
  @Test(arguments: Form.allCases)
  func aFailingInnerStreamFailsIt(_ form: Form) {
    let inners = inners(secondFails: true)
    let (observer, xs) = run(form, inners, end: .completed, at: 600)
    observer.assertEvents(Self.valuesUntil450 + [.error(.seconds(450), Self.failure)])
    xs.assertSubscriptions(window(200, 450))
    inners[0].assertSubscriptions(window(300, 400))
    inners[1].assertSubscriptions(window(400, 450))
    inners[2].assertSubscriptions([])
  }

  // RxSwift: testSwitch_OuterThrows, testFlatMapLatest_OuterThrows
  @Test(arguments: Form.allCases)
  func aFailingOuterStreamFailsIt(_ form: Form) {
    let inners = Array(inners().prefix(2))
    let (observer, xs) = run(form, inners, end: .error(Self.failure), at: 500)
    observer.assertEvents(Self.valuesUntil450 + [.error(.seconds(500), Self.failure)])
    xs.assertSubscriptions(window(200, 500))
    inners[0].assertSubscriptions(window(300, 400))
    inners[1].assertSubscriptions(window(400, 450))
  }

  // RxSwift: testSwitchReleasesResourcesOnComplete, testSwitch1ReleasesResourcesOnError,
  // testSwitch2ReleasesResourcesOnError. The suite's resource check fails if anything is left
  // alive.
  @Test func switchLatestReleasesEverything() {
    let one = Observable<Int, TestError>.just(1)
    let failing = Observable<Int, TestError>.error(Self.failure)
    let streams = [
      Streams.of(one).switchLatest(), Streams.of(failing).switchLatest(),
      Streams.error(Self.failure).switchLatest(),
    ]
    let recorders = streams.map { stream in
      let events = Recorder<StreamEvent<Int, TestError>>()
      stream.subscribe { events.append($0) }
      return events
    }
    #expect(
      recorders.map(\.values) == [
        [.next(1), .completed], [.error(Self.failure)], [.error(Self.failure)],
      ]
    )
  }

  // RxSwift: testFlatMapLatest1ReleasesResourcesOnComplete, …2ReleasesResourcesOnComplete,
  // testFlatMapLatest1ReleasesResourcesOnError, …2ReleasesResourcesOnError: a timer after the
  // values on either side, and a timeout that fails before it; the scheduler runs them out.
  @Test func flatMapLatestReleasesEverything() {
    let one = Observable<Int, TestError>.just(1)
    let oneThenTimer = one.concat(
      with: Observable<Int, TestError>.timer(.seconds(20), scheduler: scheduler)
    )
    let outerThenTimer = Observable<Int, TestError>.of(1, 2)
      .concat(with: Observable<Int, TestError>.timer(.seconds(20), scheduler: scheduler))
    let streams = [
      one.flatMapLatest { _ in oneThenTimer },
      outerThenTimer.flatMapLatest { _ in one },
      one.flatMapLatest { [scheduler] _ in
        oneThenTimer.timeout(.seconds(10), scheduler: scheduler, error: Self.failure)
      },
      outerThenTimer.timeout(.seconds(10), scheduler: scheduler, error: Self.failure)
        .flatMapLatest { _ in one },
    ]
    let recorders = streams.map { stream in
      let events = Recorder<StreamEvent<Int, TestError>>()
      stream.subscribe { events.append($0) }
      return events
    }
    scheduler.run()
    #expect(
      recorders.map(\.values) == [
        [.next(1), .next(0), .completed],
        [.next(1), .next(1), .next(1), .completed],
        [.next(1), .error(Self.failure)],
        [.next(1), .next(1), .error(Self.failure)],
      ]
    )
  }
}
