import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's delaySubscription cases (ReactiveX/RxSwift,
// Tests/RxSwiftTests/Observable+DelaySubscriptionTests.swift), re-expressed on Cascade's
// `TestScheduler`: the same cold input, times, expected events and subscription windows.
@Suite(.checksResources)
struct DelaySubscriptionTests {
  static let failure = TestError("test")
  let scheduler = TestScheduler()

  // RxSwift: testDelaySubscription_TimeSpan_Simple
  @Test func subscribesLate() {
    let source = scheduler.createColdObservable(
      [
        .next(.seconds(50), 42), .next(.seconds(60), 43), .completed(.seconds(70)),
      ] as [Recorded<StreamEvent<Int, TestError>>]
    )
    let observer = scheduler.start { source.delaySubscription(.seconds(30), scheduler: scheduler) }
    observer.assertEvents([
      .next(.seconds(280), 42), .next(.seconds(290), 43), .completed(.seconds(300)),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(230), .seconds(300))])
  }

  // RxSwift: testDelaySubscription_TimeSpan_Error
  @Test func failurePassesThrough() {
    let source = scheduler.createColdObservable(
      [
        .next(.seconds(50), 42), .next(.seconds(60), 43), .error(.seconds(70), Self.failure),
      ] as [Recorded<StreamEvent<Int, TestError>>]
    )
    let observer = scheduler.start { source.delaySubscription(.seconds(30), scheduler: scheduler) }
    observer.assertEvents([
      .next(.seconds(280), 42), .next(.seconds(290), 43), .error(.seconds(300), Self.failure),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(230), .seconds(300))])
  }

  // RxSwift: testDelaySubscription_TimeSpan_Dispose
  @Test func disposalEndsTheLateSubscription() {
    let source = scheduler.createColdObservable(
      [
        .next(.seconds(50), 42), .next(.seconds(60), 43), .error(.seconds(70), Self.failure),
      ] as [Recorded<StreamEvent<Int, TestError>>]
    )
    let observer = scheduler.start(disposed: .seconds(291)) {
      source.delaySubscription(.seconds(30), scheduler: scheduler)
    }
    observer.assertEvents([.next(.seconds(280), 42), .next(.seconds(290), 43)])
    source.assertSubscriptions([SubscriptionWindow(.seconds(230), .seconds(291))])
  }

  @Test func disposalBeforeTheDueTimeNeverSubscribes() {
    let source = scheduler.createColdObservable(
      [
        .next(.seconds(10), 1)
      ] as [Recorded<StreamEvent<Int, Never>>]
    )
    let observer = scheduler.start(disposed: .seconds(220)) {
      source.delaySubscription(.seconds(30), scheduler: scheduler)
    }
    observer.assertEvents([])
    source.assertSubscriptions([])
    #expect(scheduler.pendingCount == 0)
  }

  // RxSwift: testDelaySubscriptionReleasesResourcesOnComplete, …OnError. The suite's resource
  // check fails if anything is left alive.
  @Test func releasesEverything() {
    let events = Recorder<StreamEvent<Int, TestError>>()
    Observable<Int, TestError>.just(1).delaySubscription(.seconds(35), scheduler: scheduler)
      .subscribe { events.append($0) }
    Observable<Int, TestError>.error(Self.failure)
      .delaySubscription(.seconds(35), scheduler: scheduler)
      .subscribe { events.append($0) }
    scheduler.run()
    #expect(events.values == [.next(1), .completed, .error(Self.failure)])
  }
}
