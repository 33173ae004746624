import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's buffer cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+BufferTests.swift),
// re-expressed on Cascade's `TestScheduler`: the same hot inputs, times, expected events and
// subscription windows.
@Suite(.checksResources)
struct BufferTests {
  static let failure = TestError("test")
  let scheduler = TestScheduler()

  static let values: [Recorded<StreamEvent<Int, TestError>>] = [
    .next(.seconds(205), 1), .next(.seconds(210), 2), .next(.seconds(240), 3),
    .next(.seconds(280), 4), .next(.seconds(320), 5), .next(.seconds(350), 6),
    .next(.seconds(370), 7), .next(.seconds(420), 8), .next(.seconds(470), 9),
  ]

  // RxSwift: testBufferWithTimeOrCount_Basic. Full windows close at once, the others when their
  // 70 s run out (empty ones too), and completion emits the open window.
  @Test func closesOnCountOrTime() {
    let source = scheduler.createHotObservable(Self.values + [.completed(.seconds(600))])
    let observer = scheduler.start {
      source.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler)
    }
    observer.assertEvents([
      .next(.seconds(240), [1, 2, 3]),
      .next(.seconds(310), [4]),
      .next(.seconds(370), [5, 6, 7]),
      .next(.seconds(440), [8]),
      .next(.seconds(510), [9]),
      .next(.seconds(580), []),
      .next(.seconds(600), []),
      .completed(.seconds(600)),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(600))])
  }

  // RxSwift: testBufferWithTimeOrCount_Error. A failure drops the open window.
  @Test func failureIsDeliveredAtOnce() {
    let source = scheduler.createHotObservable(Self.values + [.error(.seconds(600), Self.failure)])
    let observer = scheduler.start {
      source.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler)
    }
    observer.assertEvents([
      .next(.seconds(240), [1, 2, 3]),
      .next(.seconds(310), [4]),
      .next(.seconds(370), [5, 6, 7]),
      .next(.seconds(440), [8]),
      .next(.seconds(510), [9]),
      .next(.seconds(580), []),
      .error(.seconds(600), Self.failure),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(600))])
  }

  // RxSwift: testBufferWithTimeOrCount_Disposed
  @Test func disposalStopsTheTimers() {
    let source = scheduler.createHotObservable(Self.values + [.completed(.seconds(600))])
    let observer = scheduler.start(disposed: .seconds(370)) {
      source.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler)
    }
    observer.assertEvents([
      .next(.seconds(240), [1, 2, 3]),
      .next(.seconds(310), [4]),
      .next(.seconds(370), [5, 6, 7]),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(370))])
    scheduler.advance(to: SchedulerInstant(offset: .seconds(1000)))
    #expect(observer.events.count == 3)
  }

  // RxSwift: testBufferWithTimeOrCount_Default, which runs on a background queue and blocks;
  // here a synchronous source fills the windows without any time passing.
  @Test func fullWindowsOfASynchronousSource() {
    let observer = scheduler.start {
      Observable<Int, Never>.from(1...10)
        .buffer(timeSpan: .seconds(1000), count: 3, scheduler: scheduler)
        .skip(1)
        .take(1)
    }
    observer.assertEvents([.next(.seconds(200), [4, 5, 6]), .completed(.seconds(200))])
  }

  // RxSwift: testBufferReleasesResourcesOnComplete, testBufferReleasesResourcesOnError. The
  // suite's resource check fails if anything, a timer included, is left alive.
  @Test func releasesEverything() {
    let events = Recorder<StreamEvent<[Int], TestError>>()
    Observable<Int, TestError>.just(1)
      .buffer(timeSpan: .zero, count: 10, scheduler: scheduler)
      .subscribe { events.append($0) }
    Observable<Int, TestError>.error(Self.failure)
      .buffer(timeSpan: .zero, count: 10, scheduler: scheduler)
      .subscribe { events.append($0) }
    scheduler.run()
    #expect(events.values == [.next([1]), .completed, .error(Self.failure)])
    #expect(scheduler.pendingCount == 0)
  }
}
