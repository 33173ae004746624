import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's just cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+JustTests.swift),
// re-expressed on Cascade's `TestScheduler`. Its five cases of `just(_:scheduler:)`
// (`testJust_Basic`, `testJust_Disposed`, `testJust_DisposeAfterNext`,
// `testJust_DefaultScheduler`, `testJustSchdedulerReleasesResourcesOnComplete`) have no
// counterpart: Cascade's `just` emits at subscription, on the subscribing thread, and takes no
// scheduler (`subscribe(on:)` or `observe(on:)` moves it).
@Suite(.checksResources)
struct JustConformanceTests {
  let scheduler = TestScheduler()

  // RxSwift: testJust_Immediate
  @Test func emitsAndCompletesAtSubscription() {
    let observer = scheduler.start { Observable<Int, Never>.just(42) }
    observer.assertEvents([.next(.seconds(200), 42), .completed(.seconds(200))])
  }

  // RxSwift: testJust_CompilesInMap
  @Test func justIsAFunctionOfItsElement() {
    let stream = (1 as Int?).map(Observable<Int, Never>.just)
    #expect(stream != nil)
  }

  // RxSwift: testJustReleasesResourcesOnComplete (the suite's resource check fails a test that
  // leaves a subscription behind).
  @Test func justReleasesItsResources() {
    let events = Recorder<StreamEvent<Int, Never>>()
    _ = Observable<Int, Never>.just(1).subscribe { events.append($0) }
    #expect(events.values == [.next(1), .completed])
  }
}
