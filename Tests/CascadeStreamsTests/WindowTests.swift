import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's window cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+WindowTests.swift),
// re-expressed on Cascade's `TestScheduler`: the same hot input, times, expected events and
// subscription windows. As in RxSwift, each window's values are tagged with its index and the
// windows merged.
@Suite(.checksResources)
struct WindowTests {
  static let failure = TestError("test")
  let scheduler = TestScheduler()

  static let values: [Recorded<StreamEvent<Int, TestError>>] = [
    .next(.seconds(205), 1), .next(.seconds(210), 2), .next(.seconds(240), 3),
    .next(.seconds(280), 4), .next(.seconds(320), 5), .next(.seconds(350), 6),
    .next(.seconds(370), 7), .next(.seconds(420), 8), .next(.seconds(470), 9),
  ]

  static let tagged: [Recorded<StreamEvent<String, TestError>>] = [
    .next(.seconds(205), "0 1"), .next(.seconds(210), "0 2"), .next(.seconds(240), "0 3"),
    .next(.seconds(280), "1 4"), .next(.seconds(320), "2 5"), .next(.seconds(350), "2 6"),
    .next(.seconds(370), "2 7"), .next(.seconds(420), "3 8"), .next(.seconds(470), "4 9"),
  ]

  /// The values of each window of `source`, tagged with the window's index, merged.
  func tagged(_ source: some ObservableType<Int, TestError>) -> Observable<String, TestError> {
    let index = Counter()
    return source.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler)
      .flatMap { window in
        let number = index.increment() - 1
        return window.map { "\(number) \($0)" }
      }
  }

  // RxSwift: testWindowWithTimeOrCount_Basic
  @Test func closesOnCountOrTime() {
    let source = scheduler.createHotObservable(Self.values + [.completed(.seconds(600))])
    let observer = scheduler.start { tagged(source) }
    observer.assertEvents(Self.tagged + [.completed(.seconds(600))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(600))])
  }

  // RxSwift: testWindowWithTimeOrCount_Error
  @Test func failureFailsTheOpenWindowAndTheResult() {
    let source = scheduler.createHotObservable(Self.values + [.error(.seconds(600), Self.failure)])
    let observer = scheduler.start { tagged(source) }
    observer.assertEvents(Self.tagged + [.error(.seconds(600), Self.failure)])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(600))])
  }

  // RxSwift: testWindowWithTimeOrCount_Disposed
  @Test func disposalStopsEverything() {
    let source = scheduler.createHotObservable(
      [.next(.seconds(105), 0)] + Self.values + [.completed(.seconds(600))]
    )
    let observer = scheduler.start(disposed: .seconds(370)) { tagged(source) }
    observer.assertEvents(Array(Self.tagged.prefix(7)))
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(370))])
  }

  // RxSwift: windowWithTimeOrCount_Default (disabled in RxSwift: it lacks the `test` prefix),
  // which runs on a background queue; here a synchronous source fills the windows at once.
  @Test func fullWindowsOfASynchronousSource() {
    let observer = scheduler.start {
      tagged(Observable<Int, TestError>.from(1...10)).skip(4).take(1)
    }
    observer.assertEvents([.next(.seconds(200), "1 5"), .completed(.seconds(200))])
  }

  // RxSwift: testWindowReleasesResourcesOnComplete, testWindowReleasesResourcesOnError. The
  // suite's resource check fails if anything, a timer included, is left alive.
  @Test func releasesEverything() {
    let events = Recorder<String>()
    Observable<Int, TestError>.just(1)
      .window(timeSpan: .zero, count: 10, scheduler: scheduler)
      .subscribe(onNext: { _ in events.append("window") }, onCompleted: { events.append("end") })
    Observable<Int, TestError>.error(Self.failure)
      .window(timeSpan: .zero, count: 10, scheduler: scheduler)
      .subscribe(onNext: { _ in events.append("window") }, onError: { _ in events.append("error") })
    scheduler.run()
    #expect(events.values == ["window", "end", "window", "error"])
    #expect(scheduler.pendingCount == 0)
  }
}
