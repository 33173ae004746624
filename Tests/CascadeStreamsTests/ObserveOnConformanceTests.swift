import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's observe(on:) cases (ReactiveX/RxSwift,
// Tests/RxSwiftTests/Observable+ObserveOnTests.swift) that run on a virtual-time scheduler,
// re-expressed on Cascade's `TestScheduler`: its two resource cases. Its other 23 cases are not
// carried: they observe on a real dispatch queue, operation queue or concurrent scheduler
// (`SerialDispatchQueueScheduler`, `OperationQueueScheduler`,
// `ConcurrentDispatchQueueScheduler`) and check that work runs there, in order, and without
// deadlock; `ObserveOnTests` and `SchedulerConcurrencyTests` check those properties of Cascade's
// schedulers.
@Suite(.checksResources)
struct ObserveOnConformanceTests {
  static let failure = TestError("test")
  let scheduler = TestScheduler()

  // RxSwift: testObserveOnReleasesResourcesOnComplete, testObserveOnReleasesResourcesOnError
  // (the suite's resource check fails a test that leaves a subscription behind).
  @Test func observeOnReleasesItsResources() {
    let events = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable<Int, TestError>.just(1).observe(on: scheduler)
      .subscribe { events.append($0) }
    _ = Observable<Int, TestError>.error(Self.failure).observe(on: scheduler)
      .subscribe { events.append($0) }
    scheduler.run()
    #expect(events.values == [.next(1), .completed, .error(Self.failure)])
  }
}
