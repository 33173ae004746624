import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's amb cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+AmbTests.swift),
// re-expressed on Cascade's `TestScheduler`: the same hot inputs, times, expected events and
// subscription windows.
@Suite(.checksResources)
struct AmbTests {
  static let failure = TestError("test")
  let scheduler = TestScheduler()

  func hot(_ events: [Recorded<StreamEvent<Int, TestError>>]) -> HotObservable<Int, TestError> {
    scheduler.createHotObservable(events)
  }

  // RxSwift: testAmb_Never2
  @Test func twoSilentSources() {
    let first = hot([.next(.seconds(150), 1)])
    let second = hot([.next(.seconds(150), 1)])
    let observer = scheduler.start { first.amb(second) }
    observer.assertEvents([])
    first.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(1000))])
    second.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(1000))])
  }

  // RxSwift: testAmb_Never3
  @Test func threeSilentSources() {
    let sources = (0..<3).map { _ in hot([.next(.seconds(150), 1)]) }
    let observer = scheduler.start { Observable.amb(sources.map { $0.asObservable() }) }
    observer.assertEvents([])
    for source in sources {
      source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(1000))])
    }
  }

  // RxSwift: testAmb_Never_Empty. Completion elects too.
  @Test func completionWins() {
    let first = hot([.next(.seconds(150), 1)])
    let second = hot([.next(.seconds(150), 1), .completed(.seconds(225))])
    let observer = scheduler.start { first.amb(second) }
    observer.assertEvents([.completed(.seconds(225))])
    first.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(225))])
    second.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(225))])
  }

  // RxSwift: testAmb_RegularShouldDisposeLoser
  @Test func theLoserIsDisposedOfAtTheElection() {
    let first = hot([.next(.seconds(150), 1), .next(.seconds(210), 2), .completed(.seconds(240))])
    let second = hot([.next(.seconds(150), 1), .next(.seconds(220), 3), .completed(.seconds(250))])
    let observer = scheduler.start { first.amb(second) }
    observer.assertEvents([.next(.seconds(210), 2), .completed(.seconds(240))])
    first.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(240))])
    second.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(210))])
  }

  // RxSwift: testAmb_WinnerThrows
  @Test func theWinnersFailurePasses() {
    let first = hot([
      .next(.seconds(150), 1), .next(.seconds(210), 2), .error(.seconds(220), Self.failure),
    ])
    let second = hot([.next(.seconds(150), 1), .next(.seconds(220), 3), .completed(.seconds(250))])
    let observer = scheduler.start { first.amb(second) }
    observer.assertEvents([.next(.seconds(210), 2), .error(.seconds(220), Self.failure)])
    first.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(220))])
    second.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(210))])
  }

  // RxSwift: testAmb_LoserThrows
  @Test func theLosersFailureIsIgnored() {
    let first = hot([
      .next(.seconds(150), 1), .next(.seconds(220), 2), .error(.seconds(230), Self.failure),
    ])
    let second = hot([.next(.seconds(150), 1), .next(.seconds(210), 3), .completed(.seconds(250))])
    let observer = scheduler.start { first.amb(second) }
    observer.assertEvents([.next(.seconds(210), 3), .completed(.seconds(250))])
    first.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(210))])
    second.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testAmb_ThrowsBeforeElectionLeft, testAmb_ThrowsBeforeElectionRight. A failure
  // elects too.
  @Test(arguments: [false, true])
  func aFailureBeforeAnyValueWins(onTheRight: Bool) {
    let failing = hot([.next(.seconds(150), 1), .error(.seconds(210), Self.failure)])
    let other = hot([.next(.seconds(150), 1), .next(.seconds(220), 3), .completed(.seconds(250))])
    let observer = scheduler.start { onTheRight ? other.amb(failing) : failing.amb(other) }
    observer.assertEvents([.error(.seconds(210), Self.failure)])
    failing.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(210))])
    other.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(210))])
  }

  // RxSwift: testAmb1ReleasesResourcesOnComplete, testAmb2ReleasesResourcesOnComplete,
  // testAmb1ReleasesResourcesOnError, testAmb2ReleasesResourcesOnError. The suite's resource
  // check fails if anything, a timer included, is left alive.
  @Test func releasesEverything() {
    let values = Recorder<StreamEvent<Int, Never>>()
    let one = Observable<Int, Never>.just(1)
    one.delay(.seconds(10), scheduler: scheduler).amb(one).subscribe { values.append($0) }
    one.amb(one.delay(.seconds(10), scheduler: scheduler)).subscribe { values.append($0) }
    let failures = Recorder<StreamEvent<Int, TestError>>()
    let never = Observable<Int, TestError>.never()
    never.timeout(.seconds(20), scheduler: scheduler, error: Self.failure).amb(never)
      .subscribe { failures.append($0) }
    never.amb(never.timeout(.seconds(20), scheduler: scheduler, error: Self.failure))
      .subscribe { failures.append($0) }
    scheduler.run()
    #expect(values.values == [.next(1), .completed, .next(1), .completed])
    #expect(failures.values == [.error(Self.failure), .error(Self.failure)])
  }
}
