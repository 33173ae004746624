import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's distinctUntilChanged cases (ReactiveX/RxSwift,
// Tests/RxSwiftTests/Observable+DistinctUntilChangedTests.swift), re-expressed on Cascade's
// `TestScheduler`: the same hot inputs, times, expected events and subscription windows.
// RxSwift's key selector `distinctUntilChanged { $0 }` is Cascade's `distinctUntilChanged()`
// (and `distinctUntilChanged(by: \.self)`), its `distinctUntilChanged { $0 % 2 }` the
// comparer `distinctUntilChanged { $0 % 2 == $1 % 2 }`, and its `distinctUntilChanged(at:)`
// Cascade's `distinctUntilChanged(by:)`.
//
// Not carried here: `testDistinctUntilChanged_keySelectorThrows` and
// `testDistinctUntilChanged_comparerThrows`, whose comparers throw: Cascade's take a key path or
// a comparer that cannot (a stream's failures are typed, and work that can fail belongs in a
// step of the stream's failure type).
@Suite(.checksResources)
struct DistinctUntilChangedConformanceTests {
  static let failure = RxSwiftInputs.failure
  let scheduler = TestScheduler()

  /// The spellings of RxSwift's identity key selector.
  enum Form: String, CaseIterable, Sendable {
    case equatable
    case keyPath

    func apply(to source: HotObservable<Int, TestError>) -> Observable<Int, TestError> {
      switch self {
      case .equatable: source.distinctUntilChanged().asObservable()
      case .keyPath: source.distinctUntilChanged(by: \.self).asObservable()
      }
    }
  }

  /// A value before the subscription, which no case sees.
  static let early: Recorded<StreamEvent<Int, TestError>> = .next(.seconds(150), 1)

  /// 2, 3, 4 and 5 from 210 to 240, then the completion at 250.
  static let allDifferent: [Recorded<StreamEvent<Int, TestError>>] = [
    early, .next(.seconds(210), 2), .next(.seconds(220), 3), .next(.seconds(230), 4),
    .next(.seconds(240), 5), .completed(.seconds(250)),
  ]

  // RxSwift: testDistinctUntilChanged_allChanges
  @Test(arguments: Form.allCases)
  func everyValueDiffers(_ form: Form) {
    let source = scheduler.createHotObservable(Self.allDifferent)
    let observer = scheduler.start { form.apply(to: source) }
    observer.assertEvents(Array(Self.allDifferent.dropFirst()))
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testDistinctUntilChanged_someChanges
  @Test(arguments: Form.allCases)
  func someValuesRepeat(_ form: Form) {
    let source = scheduler.createHotObservable([
      Self.early, .next(.seconds(210), 2), .next(.seconds(215), 3), .next(.seconds(220), 3),
      .next(.seconds(225), 2), .next(.seconds(230), 2), .next(.seconds(230), 1),
      .next(.seconds(240), 2), .completed(.seconds(250)),
    ])
    let observer = scheduler.start { form.apply(to: source) }
    observer.assertEvents([
      .next(.seconds(210), 2), .next(.seconds(215), 3), .next(.seconds(225), 2),
      .next(.seconds(230), 1), .next(.seconds(240), 2), .completed(.seconds(250)),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testDistinctUntilChanged_allEqual
  @Test func aComparerThatCallsEveryValueADuplicate() {
    let source = scheduler.createHotObservable(Self.allDifferent)
    let observer = scheduler.start { source.distinctUntilChanged { _, _ in true } }
    observer.assertEvents([.next(.seconds(210), 2), .completed(.seconds(250))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testDistinctUntilChanged_allDifferent
  @Test func aComparerThatCallsNoValueADuplicate() {
    let source = scheduler.createHotObservable([
      Self.early, .next(.seconds(210), 2), .next(.seconds(220), 2), .next(.seconds(230), 2),
      .next(.seconds(240), 2), .completed(.seconds(250)),
    ])
    let observer = scheduler.start { source.distinctUntilChanged { _, _ in false } }
    observer.assertEvents([
      .next(.seconds(210), 2), .next(.seconds(220), 2), .next(.seconds(230), 2),
      .next(.seconds(240), 2), .completed(.seconds(250)),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testDistinctUntilChanged_keySelector_Div2
  @Test func valuesOfTheSameParity() {
    let source = scheduler.createHotObservable([
      Self.early, .next(.seconds(210), 2), .next(.seconds(220), 4), .next(.seconds(230), 3),
      .next(.seconds(240), 5), .completed(.seconds(250)),
    ])
    let observer = scheduler.start { source.distinctUntilChanged { $0 % 2 == $1 % 2 } }
    observer.assertEvents([
      .next(.seconds(210), 2), .next(.seconds(230), 3), .completed(.seconds(250)),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  /// RxSwift's value with a second, constant property that the key path leaves out.
  struct Tagged: Equatable, Sendable {
    var value: Int
    var other = ""
  }

  // RxSwift: testDistinctUntilChangedKeyPath_allChanges
  @Test func byAKeyPath() {
    let source = scheduler.createHotObservable(
      Self.allDifferent.map { recorded -> Recorded<StreamEvent<Tagged, TestError>> in
        switch recorded.value {
        case .next(let value): .next(recorded.time, Tagged(value: value))
        case .error(let failure): .error(recorded.time, failure)
        case .completed: .completed(recorded.time)
        }
      }
    )
    let observer = scheduler.start { source.distinctUntilChanged(by: \.value) }
    observer.assertEvents([
      .next(.seconds(210), Tagged(value: 2)), .next(.seconds(220), Tagged(value: 3)),
      .next(.seconds(230), Tagged(value: 4)), .next(.seconds(240), Tagged(value: 5)),
      .completed(.seconds(250)),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testDistinctUntilChangedReleasesResourcesOnComplete,
  // testDistinctUntilChangedReleasesResourcesOnError (the suite's resource check fails a test
  // that leaves a subscription behind).
  @Test func distinctUntilChangedReleasesItsResources() {
    let completed = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable<Int, TestError>.just(1).distinctUntilChanged()
      .subscribe { completed.append($0) }
    let failed = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable<Int, TestError>.error(Self.failure).distinctUntilChanged()
      .subscribe { failed.append($0) }
    #expect(completed.values == [.next(1), .completed])
    #expect(failed.values == [.error(Self.failure)])
  }
}
