import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's merge cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+MergeTests.swift),
// re-expressed on Cascade's `TestScheduler`: the same cold inputs, times, expected events and
// subscription windows, for each of Cascade's spellings of a merge of given sources, as RxSwift
// runs each for its variadic, collection and array spellings.
//
// Only that file's `testMergeSync_…` cases and their two resource cases have a counterpart.
// The others merge a stream of streams (`merge()`: `testMerge_Deadlock…`,
// `testMerge_ObservableOfObservable_…`, `testMerge1…` and `testMerge2ReleasesResources…`) or
// bound the number of inner subscriptions (`merge(maxConcurrent:)`:
// `testMergeConcurrent_…`, `testMerge_MergeConcat_…`); Cascade has neither operator
// (`flatMap { $0 }` flattens a stream of streams), so those 25 cases are not carried here. The
// file's flatMap, flatMapFirst and concatMap cases belong to those operators.
@Suite(.checksResources)
struct MergeConformanceTests {
  static let failure = TestError("test")
  let scheduler = TestScheduler()

  /// Cascade's three spellings of a merge of given sources.
  enum Form: String, CaseIterable, Sendable {
    case variadic
    case array
    case mergeWith

    func merge(
      _ first: Observable<Int, TestError>,
      _ second: Observable<Int, TestError>
    ) -> Observable<Int, TestError> {
      switch self {
      case .variadic: Observable.merge(first, second)
      case .array: Observable.merge([first, second])
      case .mergeWith: first.merge(with: second)
      }
    }

    func merge(
      _ first: Observable<Int, TestError>,
      _ second: Observable<Int, TestError>,
      _ third: Observable<Int, TestError>
    ) -> Observable<Int, TestError> {
      switch self {
      case .variadic: Observable.merge(first, second, third)
      case .array: Observable.merge([first, second, third])
      case .mergeWith: first.merge(with: second).merge(with: third)
      }
    }
  }

  // RxSwift: testMergeSync_Empty (its variadic and array spellings; `merge(with:)` needs a
  // source to start from)
  @Test(arguments: [Form.variadic, .array])
  func noSourcesCompletesAtTheSubscription(_ form: Form) {
    let observer = scheduler.start {
      form == .variadic
        ? Observable<Int, TestError>.merge() : Observable<Int, TestError>.merge([])
    }
    observer.assertEvents([.completed(.seconds(200))])
  }

  // RxSwift: testMergeSync_EmptyData_DoesntCompleteImmediately
  @Test(arguments: Form.allCases)
  func anEmptySourceDoesNotCompleteTheMerge(_ form: Form) {
    let data: ColdObservable<Int, TestError> = scheduler.createColdObservable([
      .next(.seconds(10), 201), .next(.seconds(20), 202), .completed(.seconds(50)),
    ])
    let observer = scheduler.start { form.merge(.empty(), data.asObservable()) }
    observer.assertEvents([
      .next(.seconds(210), 201), .next(.seconds(220), 202), .completed(.seconds(250)),
    ])
    data.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testMergeSync_EmptyEmpty_Completes
  @Test(arguments: Form.allCases)
  func twoEmptySourcesCompleteAtTheSubscription(_ form: Form) {
    let observer = scheduler.start { form.merge(.empty(), .empty()) }
    observer.assertEvents([.completed(.seconds(200))])
  }

  // RxSwift: testMergeSync_Data
  @Test(arguments: Form.allCases)
  func valuesOfThreeSourcesInterleaved(_ form: Form) {
    let first: ColdObservable<Int, TestError> = scheduler.createColdObservable([
      .next(.seconds(10), 101), .next(.seconds(20), 102), .completed(.seconds(230)),
    ])
    let second: ColdObservable<Int, TestError> = scheduler.createColdObservable([
      .next(.seconds(10), 201), .next(.seconds(20), 202), .completed(.seconds(50)),
    ])
    let third: ColdObservable<Int, TestError> = scheduler.createColdObservable([
      .next(.seconds(10), 301), .next(.seconds(20), 302), .completed(.seconds(150)),
    ])
    let observer = scheduler.start {
      form.merge(first.asObservable(), second.asObservable(), third.asObservable())
    }
    observer.assertEvents([
      .next(.seconds(210), 101), .next(.seconds(210), 201), .next(.seconds(210), 301),
      .next(.seconds(220), 102), .next(.seconds(220), 202), .next(.seconds(220), 302),
      .completed(.seconds(430)),
    ])
    first.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(430))])
    second.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
    third.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(350))])
  }

  // RxSwift: testMergeSync_ObservableOfObservable_InnerThrows
  @Test(arguments: Form.allCases)
  func aFailingSourceFailsTheMergeAndDisposesTheOthers(_ form: Form) {
    let first: ColdObservable<Int, TestError> = scheduler.createColdObservable([
      .next(.seconds(10), 101), .next(.seconds(20), 102), .completed(.seconds(230)),
    ])
    let second: ColdObservable<Int, TestError> = scheduler.createColdObservable([
      .next(.seconds(10), 201), .error(.seconds(15), Self.failure),
    ])
    let third: ColdObservable<Int, TestError> = scheduler.createColdObservable([
      .next(.seconds(10), 301), .next(.seconds(20), 302), .completed(.seconds(150)),
    ])
    let observer = scheduler.start {
      form.merge(first.asObservable(), second.asObservable(), third.asObservable())
    }
    observer.assertEvents([
      .next(.seconds(210), 101), .next(.seconds(210), 201), .next(.seconds(210), 301),
      .error(.seconds(215), Self.failure),
    ])
    for source in [first, second, third] {
      source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(215))])
    }
  }

  // RxSwift: testMergeSyncReleasesResourcesOnComplete, testMergeSyncReleasesResourcesOnError
  // (the suite's resource check fails a test that leaves a subscription behind).
  @Test func mergeReleasesItsResources() {
    let completed = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable.merge(Observable<Int, TestError>.just(1)).subscribe { completed.append($0) }
    _ = Observable.merge([Observable<Int, TestError>.just(1)]).subscribe { completed.append($0) }
    let failed = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable.merge(Observable<Int, TestError>.error(Self.failure))
      .subscribe { failed.append($0) }
    _ = Observable.merge([Observable<Int, TestError>.error(Self.failure)])
      .subscribe { failed.append($0) }
    #expect(completed.values == [.next(1), .completed, .next(1), .completed])
    #expect(failed.values == [.error(Self.failure), .error(Self.failure)])
  }
}
