import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's map cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+MapTests.swift),
// re-expressed on Cascade's `TestScheduler`: the same hot inputs, times, expected events and
// subscription windows, for one `map` and for two composed. RxSwift's cases whose selector
// throws (`testMap_SelectorThrows`, `testMapCompose_Selector1Throws`,
// `testMapCompose_Selector2Throws`, `testMap2ReleasesResourcesOnError`) have no counterpart:
// Cascade's `map` takes a selector that cannot throw, as its failures are typed.
@Suite(.checksResources)
struct MapConformanceTests {
  static let failure = TestError("test")
  let scheduler = TestScheduler()

  /// How the cases map: RxSwift's `map { $0 * 2 }`, and its composition
  /// `map { $0 * 10 }.map { $0 + 1 }`.
  enum Form: String, CaseIterable, Sendable {
    case single
    case composed

    func apply(_ value: Int) -> Int {
      switch self {
      case .single: value * 2
      case .composed: value * 10 + 1
      }
    }

    func apply(to source: HotObservable<Int, TestError>) -> Observable<Int, TestError> {
      switch self {
      case .single: source.map { $0 * 2 }.asObservable()
      case .composed: source.map { $0 * 10 }.map { $0 + 1 }.asObservable()
      }
    }
  }

  static let values: [Recorded<StreamEvent<Int, TestError>>] = [
    .next(.seconds(150), 1), .next(.seconds(210), 0), .next(.seconds(220), 1),
    .next(.seconds(230), 2), .next(.seconds(240), 4),
  ]

  /// The values after the subscription, mapped.
  static func mapped(_ form: Form) -> [Recorded<StreamEvent<Int, TestError>>] {
    [(210, 0), (220, 1), (230, 2), (240, 4)].map { time, value in
      .next(.seconds(time), form.apply(value))
    }
  }

  // RxSwift: testMap_Never, testMapCompose_Never
  @Test(arguments: Form.allCases)
  func aSourceThatNeverEnds(_ form: Form) {
    let source: HotObservable<Int, TestError> = scheduler.createHotObservable([
      .next(.seconds(150), 1)
    ])
    let observer = scheduler.start { form.apply(to: source) }
    observer.assertEvents([])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(1000))])
  }

  // RxSwift: testMap_Empty, testMapCompose_Empty
  @Test(arguments: Form.allCases)
  func anEmptySource(_ form: Form) {
    let source: HotObservable<Int, TestError> = scheduler.createHotObservable([
      .next(.seconds(150), 1), .completed(.seconds(300)),
    ])
    let observer = scheduler.start { form.apply(to: source) }
    observer.assertEvents([.completed(.seconds(300))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(300))])
  }

  // RxSwift: testMap_Range, testMapCompose_Range
  @Test(arguments: Form.allCases)
  func valuesThenCompletion(_ form: Form) {
    let source = scheduler.createHotObservable(Self.values + [.completed(.seconds(300))])
    let observer = scheduler.start { form.apply(to: source) }
    observer.assertEvents(Self.mapped(form) + [.completed(.seconds(300))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(300))])
  }

  // RxSwift: testMap_Error, testMapCompose_Error
  @Test(arguments: Form.allCases)
  func valuesThenFailure(_ form: Form) {
    let source = scheduler.createHotObservable(Self.values + [.error(.seconds(300), Self.failure)])
    let observer = scheduler.start { form.apply(to: source) }
    observer.assertEvents(Self.mapped(form) + [.error(.seconds(300), Self.failure)])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(300))])
  }

  // RxSwift: testMap_Dispose, testMapCompose_Dispose
  @Test(arguments: Form.allCases)
  func disposedBeforeTheEnd(_ form: Form) {
    let source = scheduler.createHotObservable(Self.values + [.error(.seconds(300), Self.failure)])
    let observer = scheduler.start(disposed: .seconds(290)) { form.apply(to: source) }
    observer.assertEvents(Self.mapped(form))
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(290))])
  }

  // RxSwift: testMapReleasesResourcesOnComplete, testMap1ReleasesResourcesOnError (the suite's
  // resource check fails a test that leaves a subscription behind).
  @Test func mapReleasesItsResources() {
    let completed = Recorder<StreamEvent<Bool, TestError>>()
    _ = Observable<Int, TestError>.just(1).map { _ in true }.subscribe { completed.append($0) }
    let failed = Recorder<StreamEvent<Bool, TestError>>()
    _ = Observable<Int, TestError>.error(Self.failure).map { _ in true }
      .subscribe { failed.append($0) }
    #expect(completed.values == [.next(true), .completed])
    #expect(failed.values == [.error(Self.failure)])
  }
}
