import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's concat cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+ConcatTests.swift),
// re-expressed on Cascade's `TestScheduler`: the same hot and cold inputs, times, expected
// events and subscription windows. The cases of two sources run for each of Cascade's three
// spellings: `concat(_:)` of an array, the variadic `concat(_:)` and `concat(with:)`.
//
// RxSwift's `testConcat_TailRecursionCollection` and `testConcat_TailRecursionSequence` have no
// counterpart: they concatenate lazily generated, endless nestings of `concat` and read
// RxSwift's internal count of its tail-recursive sink's stack depth. Cascade's `concat` takes
// an array, and its own tests check that synchronous sources do not grow the stack.
@Suite(.checksResources)
struct ConcatConformanceTests {
  static let failure = TestError("test")
  static let otherFailure = TestError("other")
  let scheduler = TestScheduler()

  /// Cascade's three spellings of the concatenation of two streams.
  enum Form: String, CaseIterable, Sendable {
    case array
    case variadic
    case concatWith

    func concat(
      _ first: Observable<Int, TestError>,
      _ second: Observable<Int, TestError>
    ) -> Observable<Int, TestError> {
      switch self {
      case .array: Observable.concat([first, second])
      case .variadic: Observable.concat(first, second)
      case .concatWith: first.concat(with: second)
      }
    }
  }

  /// One of RxSwift's cases of two hot sources: their events, what the concatenation records,
  /// and when each source is subscribed to.
  struct TwoSources: Sendable, CustomTestStringConvertible {
    var rxSwift: String
    var first: [Recorded<StreamEvent<Int, TestError>>]
    var second: [Recorded<StreamEvent<Int, TestError>>]
    var expected: [Recorded<StreamEvent<Int, TestError>>]
    var firstWindows: [SubscriptionWindow]
    var secondWindows: [SubscriptionWindow]

    var testDescription: String { rxSwift }
  }

  /// A value before the subscription, which no case sees.
  static let early: Recorded<StreamEvent<Int, TestError>> = .next(.seconds(150), 1)
  static let never: [Recorded<StreamEvent<Int, TestError>>] = [early]
  static let emptyAt230: [Recorded<StreamEvent<Int, TestError>>] = [
    early, .completed(.seconds(230)),
  ]
  static let emptyAt250: [Recorded<StreamEvent<Int, TestError>>] = [
    early, .completed(.seconds(250)),
  ]

  static func window(_ subscribed: Int, _ disposed: Int) -> [SubscriptionWindow] {
    [SubscriptionWindow(.seconds(subscribed), .seconds(disposed))]
  }

  static let twoSources: [TwoSources] = [
    TwoSources(
      rxSwift: "testConcat_EmptyEmpty",
      first: emptyAt230,
      second: emptyAt250,
      expected: [.completed(.seconds(250))],
      firstWindows: window(200, 230),
      secondWindows: window(230, 250)
    ),
    TwoSources(
      rxSwift: "testConcat_EmptyNever",
      first: emptyAt230,
      second: never,
      expected: [],
      firstWindows: window(200, 230),
      secondWindows: window(230, 1000)
    ),
    TwoSources(
      rxSwift: "testConcat_NeverNever",
      first: never,
      second: never,
      expected: [],
      firstWindows: window(200, 1000),
      secondWindows: []
    ),
    TwoSources(
      rxSwift: "testConcat_EmptyThrow",
      first: emptyAt230,
      second: [early, .error(.seconds(250), failure)],
      expected: [.error(.seconds(250), failure)],
      firstWindows: window(200, 230),
      secondWindows: window(230, 250)
    ),
    TwoSources(
      rxSwift: "testConcat_ThrowEmpty",
      first: [early, .error(.seconds(230), failure)],
      second: emptyAt250,
      expected: [.error(.seconds(230), failure)],
      firstWindows: window(200, 230),
      secondWindows: []
    ),
    TwoSources(
      rxSwift: "testConcat_ThrowThrow",
      first: [early, .error(.seconds(230), failure)],
      second: [early, .error(.seconds(250), otherFailure)],
      expected: [.error(.seconds(230), failure)],
      firstWindows: window(200, 230),
      secondWindows: []
    ),
    TwoSources(
      rxSwift: "testConcat_ReturnEmpty",
      first: [early, .next(.seconds(210), 2), .completed(.seconds(230))],
      second: emptyAt250,
      expected: [.next(.seconds(210), 2), .completed(.seconds(250))],
      firstWindows: window(200, 230),
      secondWindows: window(230, 250)
    ),
    TwoSources(
      rxSwift: "testConcat_EmptyReturn",
      first: emptyAt230,
      second: [early, .next(.seconds(240), 2), .completed(.seconds(250))],
      expected: [.next(.seconds(240), 2), .completed(.seconds(250))],
      firstWindows: window(200, 230),
      secondWindows: window(230, 250)
    ),
    TwoSources(
      rxSwift: "testConcat_ReturnNever",
      first: [early, .next(.seconds(210), 2), .completed(.seconds(230))],
      second: never,
      expected: [.next(.seconds(210), 2)],
      firstWindows: window(200, 230),
      secondWindows: window(230, 1000)
    ),
    TwoSources(
      rxSwift: "testConcat_NeverReturn",
      first: never,
      second: [early, .next(.seconds(210), 2), .completed(.seconds(230))],
      expected: [],
      firstWindows: window(200, 1000),
      secondWindows: []
    ),
    TwoSources(
      rxSwift: "testConcat_ReturnReturn",
      first: [early, .next(.seconds(220), 2), .completed(.seconds(230))],
      second: [early, .next(.seconds(240), 3), .completed(.seconds(250))],
      expected: [.next(.seconds(220), 2), .next(.seconds(240), 3), .completed(.seconds(250))],
      firstWindows: window(200, 230),
      secondWindows: window(230, 250)
    ),
    TwoSources(
      rxSwift: "testConcat_ThrowReturn",
      first: [early, .error(.seconds(230), failure)],
      second: [early, .next(.seconds(240), 2), .completed(.seconds(250))],
      expected: [.error(.seconds(230), failure)],
      firstWindows: window(200, 230),
      secondWindows: []
    ),
    TwoSources(
      rxSwift: "testConcat_ReturnThrow",
      first: [early, .next(.seconds(220), 2), .completed(.seconds(230))],
      second: [early, .error(.seconds(250), otherFailure)],
      expected: [.next(.seconds(220), 2), .error(.seconds(250), otherFailure)],
      firstWindows: window(200, 230),
      secondWindows: window(230, 250)
    ),
    TwoSources(
      rxSwift: "testConcat_SomeDataSomeData",
      first: [
        early, .next(.seconds(210), 2), .next(.seconds(220), 3), .completed(.seconds(225)),
      ],
      second: [
        early, .next(.seconds(230), 4), .next(.seconds(240), 5), .completed(.seconds(250)),
      ],
      expected: [
        .next(.seconds(210), 2), .next(.seconds(220), 3), .next(.seconds(230), 4),
        .next(.seconds(240), 5), .completed(.seconds(250)),
      ],
      firstWindows: window(200, 225),
      secondWindows: window(225, 250)
    ),
  ]

  // RxSwift: testConcat_EmptyEmpty, testConcat_EmptyNever, testConcat_NeverNever,
  // testConcat_EmptyThrow, testConcat_ThrowEmpty, testConcat_ThrowThrow, testConcat_ReturnEmpty,
  // testConcat_EmptyReturn, testConcat_ReturnNever, testConcat_NeverReturn,
  // testConcat_ReturnReturn, testConcat_ThrowReturn, testConcat_ReturnThrow,
  // testConcat_SomeDataSomeData
  @Test(arguments: twoSources, Form.allCases)
  func twoHotSources(_ sources: TwoSources, _ form: Form) {
    let first = scheduler.createHotObservable(sources.first)
    let second = scheduler.createHotObservable(sources.second)
    let observer = scheduler.start { form.concat(first.asObservable(), second.asObservable()) }
    observer.assertEvents(sources.expected)
    first.assertSubscriptions(sources.firstWindows)
    second.assertSubscriptions(sources.secondWindows)
  }

  // RxSwift: testConcat_DefaultScheduler
  @Test func synchronousSourcesAreSummedInTurn() {
    let sum = LockedValue(0)
    _ = Observable<Int, Never>.concat([.just(1), .just(2), .just(3)])
      .subscribe(onNext: { value in sum.withLock { $0 += value } })
    #expect(sum.withLock { $0 } == 6)
  }

  // RxSwift: testConcat_IEofIO
  @Test func threeColdSourcesInTurn() {
    let first: ColdObservable<Int, TestError> = scheduler.createColdObservable([
      .next(.seconds(10), 1), .next(.seconds(20), 2), .next(.seconds(30), 3),
      .completed(.seconds(40)),
    ])
    let second: ColdObservable<Int, TestError> = scheduler.createColdObservable([
      .next(.seconds(10), 4), .next(.seconds(20), 5), .completed(.seconds(30)),
    ])
    let third: ColdObservable<Int, TestError> = scheduler.createColdObservable([
      .next(.seconds(10), 6), .next(.seconds(20), 7), .next(.seconds(30), 8),
      .next(.seconds(40), 9), .completed(.seconds(50)),
    ])
    let observer = scheduler.start {
      Observable.concat([first, second, third].map { $0.asObservable() })
    }
    observer.assertEvents([
      .next(.seconds(210), 1), .next(.seconds(220), 2), .next(.seconds(230), 3),
      .next(.seconds(250), 4), .next(.seconds(260), 5), .next(.seconds(280), 6),
      .next(.seconds(290), 7), .next(.seconds(300), 8), .next(.seconds(310), 9),
      .completed(.seconds(320)),
    ])
    first.assertSubscriptions(Self.window(200, 240))
    second.assertSubscriptions(Self.window(240, 270))
    third.assertSubscriptions(Self.window(270, 320))
  }

  // RxSwift: testConcat_EnumerableTiming (a cold source concatenated twice is subscribed to
  // twice)
  @Test func hotAndColdSourcesWithOneOfThemTwice() {
    let first = scheduler.createHotObservable([
      Self.early, .next(.seconds(210), 2), .next(.seconds(220), 3), .completed(.seconds(230)),
    ])
    let cold: ColdObservable<Int, TestError> = scheduler.createColdObservable([
      .next(.seconds(50), 4), .next(.seconds(60), 5), .next(.seconds(70), 6),
      .completed(.seconds(80)),
    ])
    let third = scheduler.createHotObservable([
      Self.early, .next(.seconds(200), 2), .next(.seconds(210), 3), .next(.seconds(220), 4),
      .next(.seconds(230), 5), .next(.seconds(270), 6), .next(.seconds(320), 7),
      .next(.seconds(330), 8), .completed(.seconds(340)),
    ])
    let observer = scheduler.start {
      Observable.concat([
        first.asObservable(), cold.asObservable(), third.asObservable(), cold.asObservable(),
      ])
    }
    observer.assertEvents([
      .next(.seconds(210), 2), .next(.seconds(220), 3), .next(.seconds(280), 4),
      .next(.seconds(290), 5), .next(.seconds(300), 6), .next(.seconds(320), 7),
      .next(.seconds(330), 8), .next(.seconds(390), 4), .next(.seconds(400), 5),
      .next(.seconds(410), 6), .completed(.seconds(420)),
    ])
    first.assertSubscriptions(Self.window(200, 230))
    cold.assertSubscriptions(Self.window(230, 310) + Self.window(340, 420))
    third.assertSubscriptions(Self.window(310, 340))
  }

  // RxSwift: testConcat_variadicElementsOverload
  @Test func theVariadicSpellingWithOneSource() {
    let events = Recorder<StreamEvent<Int, Never>>()
    _ = Observable.concat(Observable<Int, Never>.just(1)).subscribe { events.append($0) }
    #expect(events.values == [.next(1), .completed])
  }

  // RxSwift: testConcatReleasesResourcesOnComplete, testConcatReleasesResourcesOnError (the
  // suite's resource check fails a test that leaves a subscription behind).
  @Test func concatReleasesItsResources() {
    let completed = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable.concat([Observable<Int, TestError>.just(1)]).subscribe { completed.append($0) }
    let failed = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable.concat([Observable<Int, TestError>.error(Self.failure)])
      .subscribe { failed.append($0) }
    #expect(completed.values == [.next(1), .completed])
    #expect(failed.values == [.error(Self.failure)])
  }
}
