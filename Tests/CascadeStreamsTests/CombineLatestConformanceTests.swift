import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's combineLatest cases (ReactiveX/RxSwift, Tests/RxSwiftTests/
// Observable+CombineLatestTests.swift and the two- and three-source cases of
// Observable+CombineLatestTests+arity.swift), re-expressed on Cascade's `TestScheduler`: the same
// hot inputs, times, expected events and subscription windows. Each case names the RxSwift cases
// it carries; RxSwift runs most of them with two sources and again with a collection of two, and
// each runs here in the three forms of `Form`.
//
// Left out: `testCombineLatest_SelectorThrows2`, `…SelectorThrows3` and `…SelectorThrowsN`, whose
// result selector throws. Cascade's `combineLatest` takes a selector that cannot throw: a stream's
// failures are typed, and work that can fail belongs in a step of the stream's failure type.
//
// Deliberate difference: a source that completes without ever emitting completes the result at
// once, since no combination can be formed any more (the rule `combineLatest(_:_:)` documents).
// RxSwift waits until another source emits a value that cannot be combined, or until every source
// has completed, and keeps its subscriptions until then. The cases where that shows say so, with
// RxSwift's expectation beside Cascade's. Likewise, a collection of no sources completes at once,
// where RxSwift first emits the combination of nothing.
@Suite(.checksResources)
struct CombineLatestConformanceTests {
  typealias Events = [Recorded<StreamEvent<Int, TestError>>]

  static let failure = TestError("test")
  static let failure1 = TestError("1")
  static let failure2 = TestError("2")

  /// The spellings each case runs with: the result selector, the tuple form followed by `map`
  /// (RxSwift's two factories), and a collection of the sources followed by `map` (its `…N`
  /// cases).
  enum Form: CaseIterable, Sendable {
    case resultSelector
    case tupleThenMap
    case collection
  }

  /// One marble case over two or three hot sources, summed.
  struct Marbles: Sendable, CustomTestStringConvertible {
    /// The RxSwift cases it carries.
    let rxSwift: String
    /// Each source's events after RxSwift's value at 150, before the subscription.
    let sources: [Events]
    /// What the sum of the latest values receives.
    let expected: Events
    /// When each source is let go of.
    let disposed: [Int]

    var testDescription: String { rxSwift }
  }

  static let cases: [Marbles] = [
    Marbles(
      rxSwift: "testCombineLatest_Never2, testCombineLatest_NeverN",
      sources: [[], []],
      expected: [],
      disposed: [1000, 1000]
    ),
    // Differs: RxSwift receives nothing and lets go of the first source at 1000.
    Marbles(
      rxSwift: "testCombineLatest_NeverEmpty, testCombineLatest_NeverEmptyN",
      sources: [[], [.completed(.seconds(210))]],
      expected: [.completed(.seconds(210))],
      disposed: [210, 210]
    ),
    // Differs: RxSwift receives nothing and lets go of the second source at 1000.
    Marbles(
      rxSwift: "testCombineLatest_EmptyNever, testCombineLatest_EmptyNeverN",
      sources: [[.completed(.seconds(210))], []],
      expected: [.completed(.seconds(210))],
      disposed: [210, 210]
    ),
    // Differs: RxSwift completes at 215, when the second source's value cannot be combined.
    Marbles(
      rxSwift: "testCombineLatest_EmptyReturn, testCombineLatest_EmptyReturnN",
      sources: [
        [.completed(.seconds(210))], [.next(.seconds(215), 2), .completed(.seconds(220))],
      ],
      expected: [.completed(.seconds(210))],
      disposed: [210, 210]
    ),
    // Differs: RxSwift completes at 215, when the first source's value cannot be combined.
    Marbles(
      rxSwift: "testCombineLatest_ReturnEmpty",
      sources: [
        [.next(.seconds(215), 2), .completed(.seconds(220))], [.completed(.seconds(210))],
      ],
      expected: [.completed(.seconds(210))],
      disposed: [210, 210]
    ),
    // Differs: RxSwift completes at 220 and lets go of the second source then.
    Marbles(
      rxSwift: "testCombineLatest_Empty2",
      sources: [[.completed(.seconds(210))], [.completed(.seconds(220))]],
      expected: [.completed(.seconds(210))],
      disposed: [210, 210]
    ),
    // Differs: RxSwift completes at 500, when the second source's value cannot be combined.
    Marbles(
      rxSwift: "testCombineLatest_WillNeverBeAbleToCombine2",
      sources: [
        [.completed(.seconds(250))], [.next(.seconds(500), 2), .completed(.seconds(800))],
      ],
      expected: [.completed(.seconds(250))],
      disposed: [250, 250]
    ),
    Marbles(
      rxSwift: "testCombineLatest_NeverReturn",
      sources: [[.next(.seconds(215), 2), .completed(.seconds(220))], []],
      expected: [],
      disposed: [220, 1000]
    ),
    Marbles(
      rxSwift: "testCombineLatest_ReturnNever",
      sources: [[], [.next(.seconds(215), 2), .completed(.seconds(220))]],
      expected: [],
      disposed: [1000, 220]
    ),
    Marbles(
      rxSwift: "testCombineLatest_ReturnReturn1, testCombineLatest_ReturnReturnN",
      sources: [
        [.next(.seconds(215), 2), .completed(.seconds(230))],
        [.next(.seconds(220), 3), .completed(.seconds(240))],
      ],
      expected: [.next(.seconds(220), 2 + 3), .completed(.seconds(240))],
      disposed: [230, 240]
    ),
    Marbles(
      rxSwift: "testCombineLatest_ReturnReturn2",
      sources: [
        [.next(.seconds(220), 3), .completed(.seconds(240))],
        [.next(.seconds(215), 2), .completed(.seconds(230))],
      ],
      expected: [.next(.seconds(220), 2 + 3), .completed(.seconds(240))],
      disposed: [240, 230]
    ),
    Marbles(
      rxSwift: "testCombineLatest_Typical2",
      sources: [
        [.next(.seconds(210), 1), .next(.seconds(410), 3), .completed(.seconds(800))],
        [.next(.seconds(220), 2), .next(.seconds(420), 4), .completed(.seconds(800))],
      ],
      expected: [
        .next(.seconds(220), 3), .next(.seconds(410), 5), .next(.seconds(420), 7),
        .completed(.seconds(800)),
      ],
      disposed: [800, 800]
    ),
    Marbles(
      rxSwift: "testCombineLatest_EmptyError, testCombineLatest_EmptyErrorN",
      sources: [[.completed(.seconds(230))], [.error(.seconds(220), failure)]],
      expected: [.error(.seconds(220), failure)],
      disposed: [220, 220]
    ),
    Marbles(
      rxSwift: "testCombineLatest_ErrorEmpty",
      sources: [[.error(.seconds(220), failure)], [.completed(.seconds(230))]],
      expected: [.error(.seconds(220), failure)],
      disposed: [220, 220]
    ),
    Marbles(
      rxSwift: "testCombineLatest_NeverErrorN",
      sources: [[], [.error(.seconds(220), failure2)]],
      expected: [.error(.seconds(220), failure2)],
      disposed: [220, 220]
    ),
    Marbles(
      rxSwift: "testCombineLatest_ReturnThrow, testCombineLatest_ReturnErrorN",
      sources: [
        [.next(.seconds(210), 2), .completed(.seconds(230))], [.error(.seconds(220), failure)],
      ],
      expected: [.error(.seconds(220), failure)],
      disposed: [220, 220]
    ),
    Marbles(
      rxSwift: "testCombineLatest_ThrowReturn",
      sources: [
        [.error(.seconds(220), failure)], [.next(.seconds(210), 2), .completed(.seconds(230))],
      ],
      expected: [.error(.seconds(220), failure)],
      disposed: [220, 220]
    ),
    Marbles(
      rxSwift: "testCombineLatest_ThrowThrow1, testCombineLatest_ErrorErrorN",
      sources: [[.error(.seconds(220), failure1)], [.error(.seconds(230), failure2)]],
      expected: [.error(.seconds(220), failure1)],
      disposed: [220, 220]
    ),
    Marbles(
      rxSwift: "testCombineLatest_ThrowThrow2",
      sources: [[.error(.seconds(230), failure1)], [.error(.seconds(220), failure2)]],
      expected: [.error(.seconds(220), failure2)],
      disposed: [220, 220]
    ),
    Marbles(
      rxSwift: "testCombineLatest_ErrorThrow",
      sources: [
        [.next(.seconds(210), 2), .error(.seconds(220), failure1)],
        [.error(.seconds(230), failure2)],
      ],
      expected: [.error(.seconds(220), failure1)],
      disposed: [220, 220]
    ),
    Marbles(
      rxSwift: "testCombineLatest_ThrowError",
      sources: [
        [.error(.seconds(230), failure2)],
        [.next(.seconds(210), 2), .error(.seconds(220), failure1)],
      ],
      expected: [.error(.seconds(220), failure1)],
      disposed: [220, 220]
    ),
    Marbles(
      rxSwift: "testCombineLatest_SomeThrow, testCombineLatest_SomeErrorN",
      sources: [
        [.next(.seconds(215), 2), .completed(.seconds(230))], [.error(.seconds(220), failure)],
      ],
      expected: [.error(.seconds(220), failure)],
      disposed: [220, 220]
    ),
    Marbles(
      rxSwift: "testCombineLatest_ThrowSome",
      sources: [
        [.error(.seconds(220), failure)], [.next(.seconds(215), 2), .completed(.seconds(230))],
      ],
      expected: [.error(.seconds(220), failure)],
      disposed: [220, 220]
    ),
    Marbles(
      rxSwift: "testCombineLatest_ThrowAfterCompleteLeft, testCombineLatest_ErrorAfterCompletedN",
      sources: [
        [.next(.seconds(215), 2), .completed(.seconds(220))], [.error(.seconds(230), failure)],
      ],
      expected: [.error(.seconds(230), failure)],
      disposed: [220, 230]
    ),
    Marbles(
      rxSwift: "testCombineLatest_ThrowAfterCompleteRight",
      sources: [
        [.error(.seconds(230), failure)], [.next(.seconds(215), 2), .completed(.seconds(220))],
      ],
      expected: [.error(.seconds(230), failure)],
      disposed: [230, 220]
    ),
    Marbles(
      rxSwift: "testCombineLatest_TestInterleavedWithTail, testCombineLatest_InterleavedWithTailN",
      sources: [
        [.next(.seconds(215), 2), .next(.seconds(225), 4), .completed(.seconds(230))],
        [
          .next(.seconds(220), 3), .next(.seconds(230), 5), .next(.seconds(235), 6),
          .next(.seconds(240), 7), .completed(.seconds(250)),
        ],
      ],
      expected: [
        .next(.seconds(220), 2 + 3), .next(.seconds(225), 3 + 4), .next(.seconds(230), 4 + 5),
        .next(.seconds(235), 4 + 6), .next(.seconds(240), 4 + 7), .completed(.seconds(250)),
      ],
      disposed: [230, 250]
    ),
    Marbles(
      rxSwift: "testCombineLatest_Consecutive, testCombineLatest_ConsecutiveN",
      sources: [
        [.next(.seconds(215), 2), .next(.seconds(225), 4), .completed(.seconds(230))],
        [.next(.seconds(235), 6), .next(.seconds(240), 7), .completed(.seconds(250))],
      ],
      expected: [
        .next(.seconds(235), 4 + 6), .next(.seconds(240), 4 + 7), .completed(.seconds(250)),
      ],
      disposed: [230, 250]
    ),
    Marbles(
      rxSwift:
        "testCombineLatest_ConsecutiveEndWithErrorLeft, testCombineLatest_ConsecutiveNWithErrorLeft",
      sources: [
        [.next(.seconds(215), 2), .next(.seconds(225), 4), .error(.seconds(230), failure)],
        [.next(.seconds(235), 6), .next(.seconds(240), 7), .completed(.seconds(250))],
      ],
      expected: [.error(.seconds(230), failure)],
      disposed: [230, 230]
    ),
    Marbles(
      rxSwift:
        "testCombineLatest_ConsecutiveEndWithErrorRight, testCombineLatest_ConsecutiveNWithErrorRight",
      sources: [
        [.next(.seconds(215), 2), .next(.seconds(225), 4), .completed(.seconds(250))],
        [.next(.seconds(235), 6), .next(.seconds(240), 7), .error(.seconds(245), failure)],
      ],
      expected: [
        .next(.seconds(235), 4 + 6), .next(.seconds(240), 4 + 7), .error(.seconds(245), failure),
      ],
      disposed: [245, 245]
    ),
    Marbles(
      rxSwift: "testCombineLatest_Never3, testCombineLatest_NeverN",
      sources: [[], [], []],
      expected: [],
      disposed: [1000, 1000, 1000]
    ),
    // Differs: RxSwift completes at 230, when the last source does, letting go of each source
    // as it completes.
    Marbles(
      rxSwift: "testCombineLatest_Empty3",
      sources: [
        [.completed(.seconds(210))], [.completed(.seconds(220))], [.completed(.seconds(230))],
      ],
      expected: [.completed(.seconds(210))],
      disposed: [210, 210, 210]
    ),
    // Differs: RxSwift completes at 500, when the third source's value cannot be combined, and
    // lets go of the first two sources as they complete (250, 260).
    Marbles(
      rxSwift:
        "testCombineLatest_WillNeverBeAbleToCombine3, testCombineLatest_willNeverBeAbleToCombineN",
      sources: [
        [.completed(.seconds(250))], [.completed(.seconds(260))],
        [.next(.seconds(500), 2), .completed(.seconds(800))],
      ],
      expected: [.completed(.seconds(250))],
      disposed: [250, 250, 250]
    ),
    Marbles(
      rxSwift: "testCombineLatest_Typical3, testCombineLatest_typicalN",
      sources: [
        [.next(.seconds(210), 1), .next(.seconds(410), 4), .completed(.seconds(800))],
        [.next(.seconds(220), 2), .next(.seconds(420), 5), .completed(.seconds(800))],
        [.next(.seconds(230), 3), .next(.seconds(430), 6), .completed(.seconds(800))],
      ],
      expected: [
        .next(.seconds(230), 6), .next(.seconds(410), 9), .next(.seconds(420), 12),
        .next(.seconds(430), 15), .completed(.seconds(800)),
      ],
      disposed: [800, 800, 800]
    ),
  ]

  let scheduler = TestScheduler()

  /// A hot source with RxSwift's value at 150, before the subscription, then `events`.
  func hot(_ events: Events) -> HotObservable<Int, TestError> {
    scheduler.createHotObservable([.next(.seconds(150), 1)] + events)
  }

  func sum(_ form: Form, _ sources: [HotObservable<Int, TestError>]) -> Observable<Int, TestError> {
    switch (form, sources.count) {
    case (.resultSelector, 2):
      sources[0].combineLatest(sources[1]) { $0 + $1 }
    case (.resultSelector, _):
      sources[0].combineLatest(sources[1], sources[2]) { $0 + $1 + $2 }
    case (.tupleThenMap, 2):
      sources[0].combineLatest(sources[1]).map { $0 + $1 }.asObservable()
    case (.tupleThenMap, _):
      sources[0].combineLatest(sources[1], sources[2]).map { $0 + $1 + $2 }.asObservable()
    case (.collection, _):
      Observable.combineLatest(sources.map { $0.asObservable() }).map { $0.reduce(0, +) }
        .asObservable()
    }
  }

  func window(_ subscribed: Int, _ disposed: Int) -> [SubscriptionWindow] {
    [SubscriptionWindow(.seconds(subscribed), .seconds(disposed))]
  }

  // MARK: Two and three sources

  // RxSwift: each case names its own (see `cases`).
  @Test(arguments: cases, Form.allCases)
  func marbles(_ marbles: Marbles, form: Form) {
    let sources = marbles.sources.map(hot)
    let observer = scheduler.start { sum(form, sources) }
    observer.assertEvents(marbles.expected)
    for (source, disposed) in zip(sources, marbles.disposed) {
      source.assertSubscriptions(window(200, disposed))
    }
  }

  // MARK: Collections

  // RxSwift: testCombineLatest_emptyArrayN. Differs: RxSwift emits the combination of no values
  // (a sum of 0) at 200 before completing; Cascade's collection of no sources completes at once,
  // as its `zip` of none does.
  @Test func emptyCollectionCompletesAtOnce() {
    let observer = scheduler.start {
      Observable<Int, TestError>.combineLatest([]).map { $0.reduce(0, +) }
    }
    observer.assertEvents([.completed(.seconds(200))])
  }

  // RxSwift: testCombineLatest_NAry_symmetric
  @Test func collectionSymmetric() {
    let a = hot([.next(.seconds(210), 1), .next(.seconds(250), 4), .completed(.seconds(420))])
    let b = hot([.next(.seconds(220), 2), .next(.seconds(240), 5), .completed(.seconds(410))])
    let c = hot([.next(.seconds(230), 3), .next(.seconds(260), 6), .completed(.seconds(400))])
    let observer = scheduler.start {
      Observable.combineLatest([a, b, c].map { $0.asObservable() })
    }
    observer.assertEvents([
      .next(.seconds(230), [1, 2, 3]), .next(.seconds(240), [1, 5, 3]),
      .next(.seconds(250), [4, 5, 3]), .next(.seconds(260), [4, 5, 6]),
      .completed(.seconds(420)),
    ])
    a.assertSubscriptions(window(200, 420))
    b.assertSubscriptions(window(200, 410))
    c.assertSubscriptions(window(200, 400))
  }

  // RxSwift: testCombineLatest_NAry_asymmetric
  @Test func collectionAsymmetric() {
    let a = hot([.next(.seconds(210), 1), .next(.seconds(250), 4), .completed(.seconds(270))])
    let b = hot([
      .next(.seconds(220), 2), .next(.seconds(240), 5), .next(.seconds(290), 7),
      .next(.seconds(310), 9), .completed(.seconds(410)),
    ])
    let c = hot([
      .next(.seconds(230), 3), .next(.seconds(260), 6), .next(.seconds(280), 8),
      .completed(.seconds(300)),
    ])
    let observer = scheduler.start {
      Observable.combineLatest([a, b, c].map { $0.asObservable() })
    }
    observer.assertEvents([
      .next(.seconds(230), [1, 2, 3]), .next(.seconds(240), [1, 5, 3]),
      .next(.seconds(250), [4, 5, 3]), .next(.seconds(260), [4, 5, 6]),
      .next(.seconds(280), [4, 5, 8]), .next(.seconds(290), [4, 7, 8]),
      .next(.seconds(310), [4, 9, 8]), .completed(.seconds(410)),
    ])
    a.assertSubscriptions(window(200, 270))
    b.assertSubscriptions(window(200, 410))
    c.assertSubscriptions(window(200, 300))
  }

  // MARK: Synchronous sources

  // RxSwift: testCombineLatest_DeadlockErrorAfterN. A failure after synchronous values is
  // delivered once.
  @Test func failureAfterSynchronousValuesIsDeliveredOnce() {
    let failures = Counter()
    Observable<Int, TestError>.concat([.of(0, 1, 2), .error(Self.failure)])
      .combineLatest(Observable<Int, TestError>.of(0, 1, 2)) { $0 + $1 }
      .subscribe(onError: { _ in failures.increment() })
    #expect(failures.value == 1)
  }

  // RxSwift: testCombineLatest_DeadlockErrorImmediately
  @Test func immediateFailureIsDeliveredOnce() {
    let failures = Counter()
    Observable<Int, TestError>.error(Self.failure)
      .combineLatest(Observable<Int, TestError>.of(0, 1, 2)) { $0 + $1 }
      .subscribe(onError: { _ in failures.increment() })
    #expect(failures.value == 1)
  }

  // RxSwift: testReplay_DeadlockEmpty
  @Test func immediateEmptySourceCompletesOnce() {
    let completions = Counter()
    Observable<Int, TestError>.empty()
      .combineLatest(Observable<Int, TestError>.of(0, 1, 2)) { $0 + $1 }
      .subscribe(onCompleted: { completions.increment() })
    #expect(completions.value == 1)
  }

  // RxSwift: testCombineLatestReleasesResourcesOnComplete, …OnComplete1, …OnComplete2,
  // testCombineLatestReleasesResourcesOnError, …OnError1, …OnError2, and the array forms
  // testCombineLatestArrayReleasesResourcesOnComplete1/2 and …OnError1/2. The suite's resource
  // check fails if anything is left alive.
  @Test func releasesEverythingOnCompletionAndFailure() {
    let events = Recorder<StreamEvent<Int, TestError>>()
    let one = Observable<Int, TestError>.just(1)
    let failing = Observable<Int, TestError>.error(Self.failure)
    one.combineLatest(one, +).subscribe { events.append($0) }
    one.combineLatest(failing, +).subscribe { events.append($0) }
    one.combineLatest(one).map { $0 + $1 }.subscribe { events.append($0) }
    one.combineLatest(failing).map { $0 + $1 }.subscribe { events.append($0) }
    Observable.combineLatest([one, one]).map { $0.reduce(0, +) }.subscribe { events.append($0) }
    Observable.combineLatest([failing, one]).map { $0.reduce(0, +) }
      .subscribe { events.append($0) }
    #expect(
      events.values == [
        .next(2), .completed, .error(Self.failure), .next(2), .completed, .error(Self.failure),
        .next(2), .completed, .error(Self.failure),
      ]
    )
  }
}
