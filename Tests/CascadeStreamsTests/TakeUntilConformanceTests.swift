import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's takeUntil cases (ReactiveX/RxSwift,
// Tests/RxSwiftTests/Observable+TakeUntilTests.swift), re-expressed on Cascade's
// `TestScheduler`: the same hot inputs, times, expected events and subscription windows.
// RxSwift's `take(until:)` of another stream is Cascade's `take(until:)`, whose other stream
// has the same failure type as the source.
//
// Not carried here: the eight `testTakeUntilPredicate_…` cases, which end the stream at the
// first value that satisfies a predicate (`take(until:behavior:)` with a closure); Cascade has
// no such operator (`take(while:)` with the negated predicate is its exclusive form).
@Suite(.checksResources)
struct TakeUntilConformanceTests {
  static let failure = RxSwiftInputs.failure
  let scheduler = TestScheduler()

  /// One of RxSwift's cases: the source's and the other stream's events, what the result
  /// records, and when each stream is subscribed to.
  struct Case: Sendable, CustomTestStringConvertible {
    var rxSwift: String
    var source: [Recorded<StreamEvent<Int, TestError>>]
    var other: [Recorded<StreamEvent<Int, TestError>>]
    var expected: [Recorded<StreamEvent<Int, TestError>>]
    var sourceWindow: SubscriptionWindow
    var otherWindow: SubscriptionWindow

    var testDescription: String { rxSwift }
  }

  /// A value before the subscription, which no case sees.
  static let early: Recorded<StreamEvent<Int, TestError>> = .next(.seconds(150), 1)
  /// Four values from 210 to 240, then the completion at 250.
  static let someData: [Recorded<StreamEvent<Int, TestError>>] = [
    early, .next(.seconds(210), 2), .next(.seconds(220), 3), .next(.seconds(230), 4),
    .next(.seconds(240), 5), .completed(.seconds(250)),
  ]

  static func window(_ subscribed: Int, _ disposed: Int) -> SubscriptionWindow {
    SubscriptionWindow(.seconds(subscribed), .seconds(disposed))
  }

  static let cases: [Case] = [
    Case(
      rxSwift: "testTakeUntil_Preempt_SomeData_Next",
      source: someData,
      other: [early, .next(.seconds(225), 99), .completed(.seconds(230))],
      expected: [.next(.seconds(210), 2), .next(.seconds(220), 3), .completed(.seconds(225))],
      sourceWindow: window(200, 225),
      otherWindow: window(200, 225)
    ),
    Case(
      rxSwift: "testTakeUntil_Preempt_SomeData_Error",
      source: someData,
      other: [early, .error(.seconds(225), failure)],
      expected: [
        .next(.seconds(210), 2), .next(.seconds(220), 3), .error(.seconds(225), failure),
      ],
      sourceWindow: window(200, 225),
      otherWindow: window(200, 225)
    ),
    Case(
      rxSwift: "testTakeUntil_NoPreempt_SomeData_Empty",
      source: someData,
      other: [early, .completed(.seconds(225))],
      expected: Array(someData.dropFirst()),
      sourceWindow: window(200, 250),
      otherWindow: window(200, 225)
    ),
    Case(
      rxSwift: "testTakeUntil_NoPreempt_SomeData_Never",
      source: someData,
      other: [early],
      expected: Array(someData.dropFirst()),
      sourceWindow: window(200, 250),
      otherWindow: window(200, 250)
    ),
    Case(
      rxSwift: "testTakeUntil_Preempt_Never_Next",
      source: [early],
      other: [early, .next(.seconds(225), 2), .completed(.seconds(250))],
      expected: [.completed(.seconds(225))],
      sourceWindow: window(200, 225),
      otherWindow: window(200, 225)
    ),
    Case(
      rxSwift: "testTakeUntil_Preempt_Never_Error",
      source: [early],
      other: [early, .error(.seconds(225), failure)],
      expected: [.error(.seconds(225), failure)],
      sourceWindow: window(200, 225),
      otherWindow: window(200, 225)
    ),
    Case(
      rxSwift: "testTakeUntil_NoPreempt_Never_Empty",
      source: [early],
      other: [early, .completed(.seconds(225))],
      expected: [],
      sourceWindow: window(200, 1000),
      otherWindow: window(200, 225)
    ),
    Case(
      rxSwift: "testTakeUntil_NoPreempt_Never_Never",
      source: [early],
      other: [early],
      expected: [],
      sourceWindow: window(200, 1000),
      otherWindow: window(200, 1000)
    ),
    Case(
      rxSwift: "testTakeUntil_Preempt_BeforeFirstProduced",
      source: [early, .next(.seconds(230), 2), .completed(.seconds(240))],
      other: [early, .next(.seconds(210), 2), .completed(.seconds(220))],
      expected: [.completed(.seconds(210))],
      sourceWindow: window(200, 210),
      otherWindow: window(200, 210)
    ),
  ]

  // RxSwift: testTakeUntil_Preempt_SomeData_Next, testTakeUntil_Preempt_SomeData_Error,
  // testTakeUntil_NoPreempt_SomeData_Empty, testTakeUntil_NoPreempt_SomeData_Never,
  // testTakeUntil_Preempt_Never_Next, testTakeUntil_Preempt_Never_Error,
  // testTakeUntil_NoPreempt_Never_Empty, testTakeUntil_NoPreempt_Never_Never,
  // testTakeUntil_Preempt_BeforeFirstProduced
  @Test(arguments: cases)
  func takeUntilAnotherStream(_ takeUntil: Case) {
    let source = scheduler.createHotObservable(takeUntil.source)
    let other = scheduler.createHotObservable(takeUntil.other)
    let observer = scheduler.start { source.take(until: other) }
    observer.assertEvents(takeUntil.expected)
    source.assertSubscriptions([takeUntil.sourceWindow])
    other.assertSubscriptions([takeUntil.otherWindow])
  }

  // RxSwift: testTakeUntil_Preempt_BeforeFirstProduced_RemainSilentAndProperlyDisposed
  @Test func aSourceStoppedBeforeItFailsStaysSilent() {
    let source = scheduler.createHotObservable([
      Self.early, .error(.seconds(215), Self.failure), .completed(.seconds(240)),
    ])
    let other = scheduler.createHotObservable([
      Self.early, .next(.seconds(210), 2), .completed(.seconds(220)),
    ])
    let sourceSentAValue = Counter()
    let observer = scheduler.start {
      source.do(onNext: { _ in sourceSentAValue.increment() }).take(until: other)
    }
    observer.assertEvents([.completed(.seconds(210))])
    #expect(sourceSentAValue.value == 0)
  }

  // RxSwift: testTakeUntil_NoPreempt_AfterLastProduced_ProperlyDisposed
  @Test func theOtherStreamIsLetGoOfWhenTheSourceCompletes() {
    let source = scheduler.createHotObservable([
      Self.early, .next(.seconds(230), 2), .completed(.seconds(240)),
    ])
    let other = scheduler.createHotObservable([
      Self.early, .next(.seconds(250), 2), .completed(.seconds(260)),
    ])
    let otherSentAValue = Counter()
    let observer = scheduler.start {
      source.take(until: other.do(onNext: { _ in otherSentAValue.increment() }))
    }
    observer.assertEvents([.next(.seconds(230), 2), .completed(.seconds(240))])
    #expect(otherSentAValue.value == 0)
  }

  // RxSwift: testTakeUntil_Error_Some
  @Test func theSourceFailsBeforeTheOtherStreamSendsAValue() {
    let source = scheduler.createHotObservable([
      Self.early, .error(.seconds(225), Self.failure),
    ])
    let other = scheduler.createHotObservable([Self.early, .next(.seconds(240), 2)])
    let observer = scheduler.start { source.take(until: other) }
    observer.assertEvents([.error(.seconds(225), Self.failure)])
  }

  // RxSwift: testTakeUntil1ReleasesResourcesOnComplete, testTakeUntil2ReleasesResourcesOnComplete,
  // testTakeUntil1ReleasesResourcesOnError, testTakeUntil2ReleasesResourcesOnError (the suite's
  // resource check fails if anything, a timer included, is left alive).
  @Test func takeUntilReleasesItsResources() {
    let completed = Recorder<StreamEvent<Int, TestError>>()
    let one = Observable<Int, TestError>.just(1)
    one.delay(.seconds(10), scheduler: scheduler).take(until: one)
      .subscribe { completed.append($0) }
    one.take(until: one.delay(.seconds(10), scheduler: scheduler))
      .subscribe { completed.append($0) }
    let failed = Recorder<StreamEvent<Int, TestError>>()
    let never = Observable<Int, TestError>.never()
    never.timeout(.seconds(20), scheduler: scheduler, error: Self.failure).take(until: never)
      .subscribe { failed.append($0) }
    never.take(until: never.timeout(.seconds(20), scheduler: scheduler, error: Self.failure))
      .subscribe { failed.append($0) }
    scheduler.run()
    #expect(completed.values == [.completed, .next(1), .completed])
    #expect(failed.values == [.error(Self.failure), .error(Self.failure)])
  }
}
