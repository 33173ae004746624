import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's concatMap cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+MergeTests.swift,
// `testConcatMap_…` and `testConcatMapReleasesResources…`), re-expressed on Cascade's
// `TestScheduler`: the same hot stream of cold inner streams, times, expected events and
// subscription windows of the outer stream and of each inner one.
//
// Left out: `testConcatMap_Throw` and `testConcatMapReleasesResourcesOnError2`, whose selector
// throws. Cascade's `concatMap` takes a selector that cannot throw: a stream's failures are
// typed, and a selector that can fail returns a stream that fails
// (`testConcatMapReleasesResourcesOnError3`, which is here).
@Suite(.checksResources)
struct ConcatMapConformanceTests {
  typealias Inner = ColdObservable<Int, TestError>
  typealias Events = [Recorded<StreamEvent<Int, TestError>>]

  static let failure = TestError("test")
  let scheduler = TestScheduler()

  /// RxSwift's first inner stream, emitted at 300: five values, then `end` at 460.
  func first(end: StreamEvent<Int, TestError> = .completed) -> Inner {
    scheduler.createColdObservable([
      .next(.seconds(10), 102), .next(.seconds(90), 103), .next(.seconds(110), 104),
      .next(.seconds(190), 105), .next(.seconds(440), 106),
      Recorded(time: .seconds(460), value: end),
    ])
  }

  /// RxSwift's second inner stream, emitted at 400: two values, then a completion at `completed`
  /// if given.
  func second(completed: Int?) -> Inner {
    scheduler.createColdObservable(
      [.next(.seconds(180), 202), .next(.seconds(190), 203)]
        + (completed.map { [.completed(.seconds($0))] } ?? [])
    )
  }

  /// RxSwift's last three inner streams, emitted at 550, 750 and 850.
  func lastThree() -> [Inner] {
    [
      scheduler.createColdObservable([
        .next(.seconds(10), 301), .next(.seconds(50), 302), .completed(.seconds(60)),
      ]),
      scheduler.createColdObservable([.completed(.seconds(40))]),
      scheduler.createColdObservable([
        .next(.seconds(80), 401), .next(.seconds(90), 402), .completed(.seconds(100)),
      ]),
    ]
  }

  /// An outer stream that emits `inners` at 300, 400, 550, 750 and 850 (as many as there are),
  /// then `end` at `endTime` if given.
  func outer(
    _ inners: [Inner],
    end: StreamEvent<Inner, TestError>? = nil,
    at endTime: Int = 900
  ) -> HotObservable<Inner, TestError> {
    scheduler.createHotObservable(
      zip([300, 400, 550, 750, 850], inners).map { .next(.seconds($0), $1) }
        + (end.map { [Recorded(time: .seconds(endTime), value: $0)] } ?? [])
    )
  }

  /// The first inner stream's values, then the second's from 760 on.
  static let firstValues: Events = [
    .next(.seconds(310), 102), .next(.seconds(390), 103), .next(.seconds(410), 104),
    .next(.seconds(490), 105), .next(.seconds(740), 106),
  ]
  static let secondValues: Events = [.next(.seconds(940), 202), .next(.seconds(950), 203)]

  func window(_ subscribed: Int, _ disposed: Int) -> [SubscriptionWindow] {
    [SubscriptionWindow(.seconds(subscribed), .seconds(disposed))]
  }

  /// RxSwift's two short inner streams, at 250 and 300, and an outer stream completing at 900.
  func shortInners() -> (HotObservable<Inner, TestError>, Inner, Inner) {
    let ys1: Inner = scheduler.createColdObservable([
      .next(.seconds(10), 102), .completed(.seconds(20)),
    ])
    let ys2: Inner = scheduler.createColdObservable([
      .next(.seconds(20), 202), .completed(.seconds(25)),
    ])
    let xs: HotObservable<Inner, TestError> = scheduler.createHotObservable([
      .next(.seconds(250), ys1), .next(.seconds(300), ys2), .completed(.seconds(900)),
    ])
    return (xs, ys1, ys2)
  }

  // RxSwift: testConcatMap_InnerCompleteFasterThanOuterElementsAreProduced
  @Test func anInnerStreamThatEndsBeforeTheNextArrives() {
    let (xs, ys1, ys2) = shortInners()
    let observer = scheduler.start { xs.concatMap { $0 } }
    xs.assertSubscriptions(window(200, 900))
    ys1.assertSubscriptions(window(250, 270))
    ys2.assertSubscriptions(window(300, 325))
    observer.assertEvents([
      .next(.seconds(260), 102), .next(.seconds(320), 202), .completed(.seconds(900)),
    ])
  }

  // RxSwift: testConcatMap_Disposed
  @Test func disposingDisposesTheCurrentInner() {
    let (xs, ys1, ys2) = shortInners()
    let observer = scheduler.start(disposed: .seconds(310)) { xs.concatMap { $0 } }
    xs.assertSubscriptions(window(200, 310))
    ys1.assertSubscriptions(window(250, 270))
    ys2.assertSubscriptions(window(300, 310))
    observer.assertEvents([.next(.seconds(260), 102)])
  }

  // RxSwift: testConcatMap_OuterComplete_InnerNotComplete. The inner streams behind one that
  // never completes are never subscribed to.
  @Test func anInnerStreamThatDoesNotCompleteHoldsTheRest() {
    let ys1 = first()
    let ys2 = second(completed: nil)
    let rest = lastThree()
    let xs = outer([ys1, ys2] + rest, end: .completed)
    let observer = scheduler.start { xs.concatMap { $0 } }
    xs.assertSubscriptions(window(200, 900))
    ys1.assertSubscriptions(window(300, 760))
    ys2.assertSubscriptions(window(760, 1000))
    for inner in rest { inner.assertSubscriptions([]) }
    observer.assertEvents(Self.firstValues + Self.secondValues)
  }

  // RxSwift: testConcatMap_InnerComplete_OuterNotComplete
  @Test func anOuterStreamThatDoesNotCompleteKeepsItOpen() {
    let ys1 = first()
    let ys2 = second(completed: 205)
    let xs = outer([ys1, ys2])
    let observer = scheduler.start { xs.concatMap { $0 } }
    xs.assertSubscriptions(window(200, 1000))
    ys1.assertSubscriptions(window(300, 760))
    ys2.assertSubscriptions(window(760, 965))
    observer.assertEvents(Self.firstValues + Self.secondValues)
  }

  // RxSwift: testConcatMap_InnerComplete_OuterCompleteBeforeInner
  @Test func completesWithTheLastInnerAfterTheOuterCompleted() {
    let ys1 = first()
    let ys2 = second(completed: 195)
    let xs = outer([ys1, ys2], end: .completed, at: 405)
    let observer = scheduler.start { xs.concatMap { $0 } }
    xs.assertSubscriptions(window(200, 405))
    ys1.assertSubscriptions(window(300, 760))
    ys2.assertSubscriptions(window(760, 955))
    observer.assertEvents(Self.firstValues + Self.secondValues + [.completed(.seconds(955))])
  }

  // RxSwift: testConcatMap_InnerComplete_OuterCompleteAfterInner
  @Test func completesWithTheOuterAfterTheLastInnerCompleted() {
    let ys1 = first()
    let ys2 = second(completed: 195)
    let xs = outer([ys1, ys2], end: .completed, at: 980)
    let observer = scheduler.start { xs.concatMap { $0 } }
    xs.assertSubscriptions(window(200, 980))
    ys1.assertSubscriptions(window(300, 760))
    ys2.assertSubscriptions(window(760, 955))
    observer.assertEvents(Self.firstValues + Self.secondValues + [.completed(.seconds(980))])
  }

  // RxSwift: testConcatMap_Error_Outer
  @Test func aFailureOfTheOuterStreamDisposesTheCurrentInner() {
    let ys1 = first()
    let ys2 = second(completed: 205)
    let rest = lastThree()
    let xs = outer([ys1, ys2] + rest, end: .error(Self.failure))
    let observer = scheduler.start { xs.concatMap { $0 } }
    xs.assertSubscriptions(window(200, 900))
    ys1.assertSubscriptions(window(300, 760))
    ys2.assertSubscriptions(window(760, 900))
    for inner in rest { inner.assertSubscriptions([]) }
    observer.assertEvents(Self.firstValues + [.error(.seconds(900), Self.failure)])
  }

  // RxSwift: testConcatMap_Error_Inner
  @Test func aFailureOfAnInnerStreamDisposesEverything() {
    let ys1 = first(end: .error(Self.failure))
    let ys2 = second(completed: 205)
    let rest = lastThree()
    let xs = outer([ys1, ys2] + rest, end: .error(Self.failure))
    let observer = scheduler.start { xs.concatMap { $0 } }
    xs.assertSubscriptions(window(200, 760))
    ys1.assertSubscriptions(window(300, 760))
    for inner in [ys2] + rest { inner.assertSubscriptions([]) }
    observer.assertEvents(Self.firstValues + [.error(.seconds(760), Self.failure)])
  }

  // RxSwift: testConcatMap_UseFunction
  @Test func innerStreamsMadeByTheSelectorRunOneAfterAnother() {
    let xs: HotObservable<Int, TestError> = scheduler.createHotObservable([
      .next(.seconds(210), 4), .next(.seconds(220), 3), .next(.seconds(250), 5),
      .next(.seconds(270), 1), .completed(.seconds(290)),
    ])
    let observer = scheduler.start {
      xs.concatMap { [scheduler] x in
        Observable<Int, TestError>.interval(.seconds(10), scheduler: scheduler)
          .map { _ in x }.take(x)
      }
    }
    xs.assertSubscriptions(window(200, 290))
    observer.assertEvents([
      .next(.seconds(220), 4), .next(.seconds(230), 4), .next(.seconds(240), 4),
      .next(.seconds(250), 4), .next(.seconds(260), 3), .next(.seconds(270), 3),
      .next(.seconds(280), 3), .next(.seconds(290), 5), .next(.seconds(300), 5),
      .next(.seconds(310), 5), .next(.seconds(320), 5), .next(.seconds(330), 5),
      .next(.seconds(340), 1), .completed(.seconds(340)),
    ])
  }

  // RxSwift: testConcatMapReleasesResourcesOnComplete, testConcatMapReleasesResourcesOnError1,
  // testConcatMapReleasesResourcesOnError3. The suite's resource check fails if anything is left
  // alive.
  @Test func releasesEverythingOnCompletionAndFailure() {
    let one = Observable<Int, TestError>.just(1)
    let failing = Observable<Int, TestError>.error(Self.failure)
    let streams = [
      one.concatMap { _ in one }, failing.concatMap { _ in one }, one.concatMap { _ in failing },
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
