import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's debug cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+DebugTests.swift),
// re-expressed on Cascade's `TestScheduler`: the same hot inputs, expected events and
// subscription windows. What is logged is Cascade's own format (`DebugTests` checks it); RxSwift's
// cases do not assert its log.
@Suite(.checksResources)
struct DebugConformanceTests {
  static let failure = TestError("test")
  let scheduler = TestScheduler()

  // RxSwift: testDebug_Completed, testDebug_Error
  @Test(arguments: [StreamEvent<Int, TestError>.completed, .error(failure)])
  func eventsPassThroughUnchanged(_ end: StreamEvent<Int, TestError>) {
    let source = scheduler.createHotObservable([
      .next(.seconds(210), 0), Recorded(time: .seconds(600), value: end),
    ])
    let log = Recorder<String>()
    let observer = scheduler.start { source.debug(log: { log.append($0) }) }
    observer.assertEvents([.next(.seconds(210), 0), Recorded(time: .seconds(600), value: end)])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(600))])
    #expect(!log.values.isEmpty)
  }

  // RxSwift: testReplayNReleasesResourcesOnComplete, testReplayNReleasesResourcesOnError (so
  // named in RxSwift's debug file; the suite's resource check fails a test that leaves a
  // subscription behind).
  @Test func debugReleasesItsResources() {
    let events = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable<Int, TestError>.just(1).debug(log: { _ in }).subscribe { events.append($0) }
    _ = Observable<Int, TestError>.error(Self.failure).debug(log: { _ in })
      .subscribe { events.append($0) }
    #expect(events.values == [.next(1), .completed, .error(Self.failure)])
  }
}
