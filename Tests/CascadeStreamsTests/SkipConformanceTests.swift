import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's skip cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+SkipTests.swift),
// re-expressed on Cascade's `TestScheduler`: the same hot inputs, times, expected events and
// subscription windows.
//
// The file's second half skips for a duration (`skip(_:scheduler:)`: `testSkip_Zero`,
// `testSkip_Some`, `testSkip_Late`, `testSkip_Error`, `testSkip_Never`,
// `testSkipTimeReleasesResourcesOnComplete`, `testSkipTimeReleasesResourcesOnError`); Cascade
// has no such operator, so those seven cases are not carried here.
@Suite(.checksResources)
struct SkipConformanceTests {
  static let failure = RxSwiftInputs.failure
  let scheduler = TestScheduler()

  /// One of RxSwift's cases on its seventeen values: how many to skip, and how the input ends
  /// (the result ends the same way, at 690).
  struct Ending: Sendable, CustomTestStringConvertible {
    var rxSwift: String
    var count: Int
    var end: Recorded<StreamEvent<Int, TestError>>

    var testDescription: String { rxSwift }
  }

  static let endings: [Ending] = [
    Ending(rxSwift: "testSkip_Complete_After", count: 20, end: .completed(.seconds(690))),
    Ending(rxSwift: "testSkip_Complete_Some", count: 17, end: .completed(.seconds(690))),
    Ending(rxSwift: "testSkip_Complete_Before", count: 10, end: .completed(.seconds(690))),
    Ending(rxSwift: "testSkip_Complete_Zero", count: 0, end: .completed(.seconds(690))),
    Ending(rxSwift: "testSkip_Error_After", count: 20, end: .error(.seconds(690), failure)),
    Ending(rxSwift: "testSkip_Error_Same", count: 17, end: .error(.seconds(690), failure)),
    Ending(rxSwift: "testSkip_Error_Before", count: 3, end: .error(.seconds(690), failure)),
  ]

  // RxSwift: testSkip_Complete_After, testSkip_Complete_Some, testSkip_Complete_Before,
  // testSkip_Complete_Zero, testSkip_Error_After, testSkip_Error_Same, testSkip_Error_Before
  @Test(arguments: endings)
  func skipACountOfValues(_ ending: Ending) {
    let source = scheduler.createHotObservable(RxSwiftInputs.values + [ending.end])
    let observer = scheduler.start { source.skip(ending.count) }
    observer.assertEvents(
      Array(RxSwiftInputs.valuesAfterSubscription.dropFirst(ending.count)) + [ending.end]
    )
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(690))])
  }

  // RxSwift: testSkip_Dispose_Before
  @Test func disposedWhileSkipping() {
    let source = scheduler.createHotObservable(RxSwiftInputs.values)
    let observer = scheduler.start(disposed: .seconds(250)) { source.skip(3) }
    observer.assertEvents([])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testSkip_Dispose_After
  @Test func disposedAfterSkipping() {
    let source = scheduler.createHotObservable(RxSwiftInputs.values)
    let observer = scheduler.start(disposed: .seconds(400)) { source.skip(3) }
    observer.assertEvents([
      .next(.seconds(280), 1), .next(.seconds(300), -1), .next(.seconds(310), 3),
      .next(.seconds(340), 8), .next(.seconds(370), 11),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(400))])
  }

  // RxSwift: testSkipReleasesResourcesOnComplete, testSkipReleasesResourcesOnError (the suite's
  // resource check fails a test that leaves a subscription behind).
  @Test func skipReleasesItsResources() {
    let completed = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable<Int, TestError>.just(1).skip(1).subscribe { completed.append($0) }
    let failed = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable<Int, TestError>.error(Self.failure).skip(1).subscribe { failed.append($0) }
    #expect(completed.values == [.completed])
    #expect(failed.values == [.error(Self.failure)])
  }
}
