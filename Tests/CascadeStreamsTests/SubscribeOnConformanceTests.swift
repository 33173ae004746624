import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's subscribe(on:) cases (ReactiveX/RxSwift,
// Tests/RxSwiftTests/Observable+SubscribeOnTests.swift), re-expressed on Cascade's
// `TestScheduler`: the same hot inputs and expected events. The subscription windows and the
// times of subscription and disposal differ by one tick on purpose, from the test schedulers
// rather than the operator: RxSwift's `TestScheduler` runs work scheduled for now one tick
// later (a subscription scheduled at 200 runs at 201, a disposal at 1000 runs at 1001), while
// Cascade's runs it at the current virtual time, as its `schedule(_:)` documents. Each test
// states Cascade's times, and its comment RxSwift's.
@Suite(.checksResources)
struct SubscribeOnConformanceTests {
  static let failure = TestError("test")
  let scheduler = TestScheduler()

  // RxSwift: testSubscribeOn_SchedulerSleep (subscribed at 201 and disposed at 1001 there)
  @Test func subscribesAndDisposesOnTheScheduler() {
    let scheduled = LockedBox<Duration?>(nil)
    let disposed = LockedBox<Duration?>(nil)
    let scheduler = scheduler
    let source = Observable<Int, TestError>.create { _ in
      scheduled.value = scheduler.now.offset
      return Disposables.create { disposed.value = scheduler.now.offset }
    }
    let observer = scheduler.start { source.subscribe(on: scheduler) }
    observer.assertEvents([])
    #expect(scheduled.value == .seconds(200))
    #expect(disposed.value == .seconds(1000))
  }

  // RxSwift: testSubscribeOn_SchedulerCompleted, testSubscribeOn_SchedulerError (subscribed
  // from 201 to 301 there)
  @Test(arguments: [StreamEvent<Int, TestError>.completed, .error(failure)])
  func anEndingSource(_ end: StreamEvent<Int, TestError>) {
    let source = scheduler.createHotObservable([Recorded(time: .seconds(300), value: end)])
    let observer = scheduler.start { source.subscribe(on: scheduler) }
    observer.assertEvents([Recorded(time: .seconds(300), value: end)])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(300))])
  }

  // RxSwift: testSubscribeOn_SchedulerDispose (subscribed from 201 to 1001 there)
  @Test func disposedBeforeTheEnd() {
    let source: HotObservable<Int, TestError> = scheduler.createHotObservable([
      .next(.seconds(150), 1), .next(.seconds(210), 2),
    ])
    let observer = scheduler.start { source.subscribe(on: scheduler) }
    observer.assertEvents([.next(.seconds(210), 2)])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(1000))])
  }

  // RxSwift: testSubscribeOnSerialReleasesResourcesOnComplete,
  // testSubscribeOnSerialReleasesResourcesOnError (the suite's resource check fails a test that
  // leaves a subscription behind).
  @Test func subscribeOnReleasesItsResources() {
    let events = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable<Int, TestError>.just(1).subscribe(on: scheduler)
      .subscribe { events.append($0) }
    _ = Observable<Int, TestError>.error(Self.failure).subscribe(on: scheduler)
      .subscribe { events.append($0) }
    scheduler.run()
    #expect(events.values == [.next(1), .completed, .error(Self.failure)])
  }
}
