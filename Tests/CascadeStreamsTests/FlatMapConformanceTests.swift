import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's flatMap cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+MergeTests.swift,
// `testFlatMap_…` and `testFlatMap…ReleasesResources…`), re-expressed on Cascade's
// `TestScheduler`: the same hot stream of cold inner streams, times, expected events and
// subscription windows of the outer stream and of each inner one.
//
// Left out: `testFlatMap_SelectorThrows` and `testFlatMap2ReleasesResourcesOnError`, whose
// selector throws. Cascade's `flatMap` takes a selector that cannot throw: a stream's failures
// are typed, and a selector that can fail returns a stream that fails
// (`testFlatMap3ReleasesResourcesOnError`, which is here).
@Suite(.checksResources)
struct FlatMapConformanceTests {
  typealias Inner = ColdObservable<Int, TestError>

  static let failure = TestError("test")
  let scheduler = TestScheduler()

  /// RxSwift's outer stream and its inner streams, with the variations its cases make.
  struct Fixture: Sendable {
    let outer: HotObservable<Inner, TestError>
    /// The inner streams emitted after the subscription at 200, at 300, 400, 550, 750 and 850.
    let inners: [Inner]
  }

  /// Builds RxSwift's fixture: two failing inner streams before the subscription (at 5 and 105),
  /// then five after it.
  ///
  /// - Parameters:
  ///   - outerEnd: How the outer stream ends at 900, if it does.
  ///   - firstInnerFails: Whether the inner stream at 300 fails at 460 instead of completing.
  ///   - secondInnerCompletes: Whether the inner stream at 400 completes at 205.
  /// - Returns: The outer stream and the inner streams it emits after the subscription.
  func fixture(
    outerEnd: StreamEvent<Inner, TestError>? = .completed,
    firstInnerFails: Bool = false,
    secondInnerCompletes: Bool = true
  ) -> Fixture {
    let inners: [Inner] = [
      scheduler.createColdObservable([
        .next(.seconds(10), 102), .next(.seconds(90), 103), .next(.seconds(110), 104),
        .next(.seconds(190), 105), .next(.seconds(440), 106),
        firstInnerFails ? .error(.seconds(460), Self.failure) : .completed(.seconds(460)),
      ]),
      scheduler.createColdObservable(
        [.next(.seconds(180), 202), .next(.seconds(190), 203)]
          + (secondInnerCompletes ? [.completed(.seconds(205))] : [])
      ),
      scheduler.createColdObservable([
        .next(.seconds(10), 301), .next(.seconds(50), 302), .next(.seconds(70), 303),
        .next(.seconds(260), 304), .next(.seconds(310), 305), .completed(.seconds(410)),
      ]),
      scheduler.createColdObservable([.completed(.seconds(40))]),
      scheduler.createColdObservable([
        .next(.seconds(80), 401), .next(.seconds(90), 402), .completed(.seconds(100)),
      ]),
    ]
    let early: [Inner] = [
      scheduler.createColdObservable([.error(.seconds(1), Self.failure)]),
      scheduler.createColdObservable([.error(.seconds(1), Self.failure)]),
    ]
    let times = [300, 400, 550, 750, 850]
    var events: [Recorded<StreamEvent<Inner, TestError>>] = [
      .next(.seconds(5), early[0]), .next(.seconds(105), early[1]),
    ]
    for (time, inner) in zip(times, inners) {
      events.append(.next(.seconds(time), inner))
    }
    if let outerEnd {
      events.append(Recorded(time: .seconds(900), value: outerEnd))
    }
    return Fixture(outer: scheduler.createHotObservable(events), inners: inners)
  }

  /// The values of every inner stream, interleaved, up to `time`.
  static func values(until time: Int) -> [Recorded<StreamEvent<Int, TestError>>] {
    [
      (310, 102), (390, 103), (410, 104), (490, 105), (560, 301), (580, 202), (590, 203),
      (600, 302), (620, 303), (740, 106), (810, 304), (860, 305), (930, 401), (940, 402),
    ]
    .filter { $0.0 < time }
    .map { .next(.seconds($0.0), $0.1) }
  }

  func window(_ subscribed: Int, _ disposed: Int) -> [SubscriptionWindow] {
    [SubscriptionWindow(.seconds(subscribed), .seconds(disposed))]
  }

  func assertInnerWindows(_ fixture: Fixture, _ windows: [(Int, Int)?]) {
    for (inner, expected) in zip(fixture.inners, windows) {
      inner.assertSubscriptions(expected.map { window($0.0, $0.1) } ?? [])
    }
  }

  // RxSwift: testFlatMap_Complete
  @Test func completesOnceTheOuterAndEveryInnerHave() {
    let fixture = fixture()
    let observer = scheduler.start { fixture.outer.flatMap { $0 } }
    observer.assertEvents(Self.values(until: 1000) + [.completed(.seconds(960))])
    fixture.outer.assertSubscriptions(window(200, 900))
    assertInnerWindows(fixture, [(300, 760), (400, 605), (550, 960), (750, 790), (850, 950)])
  }

  // RxSwift: testFlatMap_Complete_InnerNotComplete (the outer stream does not complete)
  @Test func anOuterStreamThatDoesNotCompleteKeepsItOpen() {
    let fixture = fixture(outerEnd: nil)
    let observer = scheduler.start { fixture.outer.flatMap { $0 } }
    observer.assertEvents(Self.values(until: 1000))
    fixture.outer.assertSubscriptions(window(200, 1000))
    assertInnerWindows(fixture, [(300, 760), (400, 605), (550, 960), (750, 790), (850, 950)])
  }

  // RxSwift: testFlatMap_Complete_OuterNotComplete (an inner stream does not complete)
  @Test func anInnerStreamThatDoesNotCompleteKeepsItOpen() {
    let fixture = fixture(secondInnerCompletes: false)
    let observer = scheduler.start { fixture.outer.flatMap { $0 } }
    observer.assertEvents(Self.values(until: 1000))
    fixture.outer.assertSubscriptions(window(200, 900))
    assertInnerWindows(fixture, [(300, 760), (400, 1000), (550, 960), (750, 790), (850, 950)])
  }

  // RxSwift: testFlatMap_Complete_ErrorOuter
  @Test func aFailureOfTheOuterStreamDisposesEveryInner() {
    let fixture = fixture(outerEnd: .error(Self.failure), secondInnerCompletes: false)
    let observer = scheduler.start { fixture.outer.flatMap { $0 } }
    observer.assertEvents(Self.values(until: 900) + [.error(.seconds(900), Self.failure)])
    fixture.outer.assertSubscriptions(window(200, 900))
    assertInnerWindows(fixture, [(300, 760), (400, 900), (550, 900), (750, 790), (850, 900)])
  }

  // RxSwift: testFlatMap_Error_Inner
  @Test func aFailureOfAnInnerStreamDisposesEverything() {
    let fixture = fixture(firstInnerFails: true)
    let observer = scheduler.start { fixture.outer.flatMap { $0 } }
    observer.assertEvents(Self.values(until: 760) + [.error(.seconds(760), Self.failure)])
    fixture.outer.assertSubscriptions(window(200, 760))
    assertInnerWindows(fixture, [(300, 760), (400, 605), (550, 760), (750, 760), nil])
  }

  // RxSwift: testFlatMap_Dispose
  @Test func disposingDisposesTheOuterAndEveryInner() {
    let fixture = fixture()
    let observer = scheduler.start(disposed: .seconds(700)) { fixture.outer.flatMap { $0 } }
    observer.assertEvents(Self.values(until: 700))
    fixture.outer.assertSubscriptions(window(200, 700))
    assertInnerWindows(fixture, [(300, 700), (400, 605), (550, 700), nil, nil])
  }

  // RxSwift: testFlatMap_UseFunction
  @Test func innerStreamsMadeByTheSelector() {
    let xs: HotObservable<Int, TestError> = scheduler.createHotObservable([
      .next(.seconds(210), 4), .next(.seconds(220), 3), .next(.seconds(250), 5),
      .next(.seconds(270), 1), .completed(.seconds(290)),
    ])
    let observer = scheduler.start {
      xs.flatMap { [scheduler] x in
        Observable<Int, TestError>.interval(.seconds(10), scheduler: scheduler)
          .map { _ in x }.take(x)
      }
    }
    observer.assertEvents([
      .next(.seconds(220), 4), .next(.seconds(230), 3), .next(.seconds(230), 4),
      .next(.seconds(240), 3), .next(.seconds(240), 4), .next(.seconds(250), 3),
      .next(.seconds(250), 4), .next(.seconds(260), 5), .next(.seconds(270), 5),
      .next(.seconds(280), 1), .next(.seconds(280), 5), .next(.seconds(290), 5),
      .next(.seconds(300), 5), .completed(.seconds(300)),
    ])
    xs.assertSubscriptions(window(200, 290))
  }

  // RxSwift: testFlatMapReleasesResourcesOnComplete, testFlatMap1ReleasesResourcesOnError,
  // testFlatMap3ReleasesResourcesOnError. The suite's resource check fails if anything is left
  // alive.
  @Test func releasesEverythingOnCompletionAndFailure() {
    let one = Observable<Int, TestError>.just(1)
    let failing = Observable<Int, TestError>.error(Self.failure)
    let streams = [
      one.flatMap { _ in one }, failing.flatMap { _ in one }, one.flatMap { _ in failing },
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
}
