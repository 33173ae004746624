import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's reduce cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+ReduceTests.swift),
// re-expressed on Cascade's `TestScheduler`: the same hot inputs, times, expected events and
// subscription windows. RxSwift's `reduce(42, accumulator: +)` is spelled `reduce(42, +)` here,
// and its accumulators and result selectors throw the stream's typed `Failure`.
@Suite(.checksResources)
struct ReduceTests {
  static let failure = TestError("test")

  /// With and without a result selector: RxSwift runs each case in both forms.
  enum Form: CaseIterable, Sendable {
    case seed
    case seedAndResult

    /// What the form makes of the accumulated value.
    func result(_ accumulated: Int) -> Int {
      self == .seed ? accumulated : accumulated * 5
    }
  }

  let scheduler = TestScheduler()

  func reduced(
    _ source: HotObservable<Int, TestError>,
    _ form: Form,
    _ accumulate: @escaping @Sendable (Int, Int) throws(TestError) -> Int = { $0 + $1 }
  ) -> Observable<Int, TestError> {
    switch form {
    case .seed: source.reduce(42, accumulate)
    case .seedAndResult: source.reduce(42, accumulate, mapResult: { $0 * 5 })
    }
  }

  static let range: [Recorded<StreamEvent<Int, TestError>>] = [
    .next(.seconds(150), 1), .next(.seconds(210), 0), .next(.seconds(220), 1),
    .next(.seconds(230), 2), .next(.seconds(240), 3), .next(.seconds(250), 4),
    .completed(.seconds(260)),
  ]

  // RxSwift: test_ReduceWithSeed_Empty, test_ReduceWithSeedAndResult_Empty
  @Test(arguments: Form.allCases)
  func emptyEmitsTheSeed(form: Form) {
    let source = scheduler.createHotObservable(
      [
        .next(.seconds(150), 1), .completed(.seconds(250)),
      ] as [Recorded<StreamEvent<Int, TestError>>]
    )
    let observer = scheduler.start { reduced(source, form) }
    observer.assertEvents([.next(.seconds(250), form.result(42)), .completed(.seconds(250))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: test_ReduceWithSeed_Return, test_ReduceWithSeedAndResult_Return
  @Test(arguments: Form.allCases)
  func oneValue(form: Form) {
    let source = scheduler.createHotObservable(
      [
        .next(.seconds(150), 1), .next(.seconds(210), 24), .completed(.seconds(250)),
      ] as [Recorded<StreamEvent<Int, TestError>>]
    )
    let observer = scheduler.start { reduced(source, form) }
    observer.assertEvents([
      .next(.seconds(250), form.result(42 + 24)), .completed(.seconds(250)),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: test_ReduceWithSeed_Throw, test_ReduceWithSeedAndResult_Throw
  @Test(arguments: Form.allCases)
  func failure(form: Form) {
    let source = scheduler.createHotObservable(
      [
        .next(.seconds(150), 1), .error(.seconds(210), Self.failure),
      ] as [Recorded<StreamEvent<Int, TestError>>]
    )
    let observer = scheduler.start { reduced(source, form) }
    observer.assertEvents([.error(.seconds(210), Self.failure)])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(210))])
  }

  // RxSwift: test_ReduceWithSeed_Never, test_ReduceWithSeedAndResult_Never
  @Test(arguments: Form.allCases)
  func never(form: Form) {
    let source = scheduler.createHotObservable(
      [
        .next(.seconds(150), 1)
      ] as [Recorded<StreamEvent<Int, TestError>>]
    )
    let observer = scheduler.start { reduced(source, form) }
    observer.assertEvents([])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(1000))])
  }

  // RxSwift: test_ReduceWithSeed_Range, test_ReduceWithSeedAndResult_Range
  @Test(arguments: Form.allCases)
  func range(form: Form) {
    let source = scheduler.createHotObservable(Self.range)
    let observer = scheduler.start { reduced(source, form) }
    observer.assertEvents([
      .next(.seconds(260), form.result(42 + 0 + 1 + 2 + 3 + 4)), .completed(.seconds(260)),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(260))])
  }

  // RxSwift: test_ReduceWithSeed_AccumulatorThrows, test_ReduceWithSeedAndResult_AccumulatorThrows
  @Test(arguments: Form.allCases)
  func accumulatorFailure(form: Form) {
    let source = scheduler.createHotObservable(Self.range)
    let observer = scheduler.start {
      reduced(source, form) { (accumulated, value) throws(TestError) in
        guard value < 3 else { throw Self.failure }
        return accumulated + value
      }
    }
    observer.assertEvents([.error(.seconds(240), Self.failure)])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(240))])
  }

  // RxSwift: test_ReduceWithSeedAndResult_SelectorThrows
  @Test func resultSelectorFailure() {
    let source = scheduler.createHotObservable(Self.range)
    let observer = scheduler.start {
      source.reduce(42, +, mapResult: { (_: Int) throws(TestError) -> Int in throw Self.failure })
    }
    observer.assertEvents([.error(.seconds(260), Self.failure)])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(260))])
  }

  // RxSwift: testReduceReleasesResourcesOnComplete, testReduceReleasesResourcesOnError. The
  // suite's resource check fails if anything is left alive.
  @Test func releasesEverything() {
    let events = Recorder<StreamEvent<Int, TestError>>()
    Observable<Int, TestError>.just(1).reduce(0, +, mapResult: { $0 }).subscribe {
      events.append($0)
    }
    Observable<Int, TestError>.error(Self.failure).reduce(0, +).subscribe { events.append($0) }
    #expect(events.values == [.next(1), .completed, .error(Self.failure)])
  }

  @Test func aSynchronousProducerStopsAfterTheAccumulatorFails() {
    let seen = Recorder<Int>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    Observable<Int, TestError>.from(1...1000)
      .reduce(0) { (sum, value) throws(TestError) in
        seen.append(value)
        if value == 3 { throw Self.failure }
        return sum + value
      }
      .subscribe { events.append($0) }
    #expect(seen.values == [1, 2, 3])
    #expect(events.values == [.error(Self.failure)])
  }
}
