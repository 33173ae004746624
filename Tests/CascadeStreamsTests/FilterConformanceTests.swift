import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's filter and ignoreElements cases (ReactiveX/RxSwift,
// Tests/RxSwiftTests/Observable+FilterTests.swift), re-expressed on Cascade's `TestScheduler`:
// the same hot inputs, times, expected events, subscription windows and predicate calls.
@Suite(.checksResources)
struct FilterConformanceTests {
  static let failure = TestError("test")
  let scheduler = TestScheduler()

  /// RxSwift's input: 1 to 11, of which 3 to 11 after the subscription at 200, completing at 600.
  static let numbers: [Recorded<StreamEvent<Int, TestError>>] = [
    .next(.seconds(110), 1), .next(.seconds(180), 2), .next(.seconds(230), 3),
    .next(.seconds(270), 4), .next(.seconds(340), 5), .next(.seconds(380), 6),
    .next(.seconds(390), 7), .next(.seconds(450), 8), .next(.seconds(470), 9),
    .next(.seconds(560), 10), .next(.seconds(580), 11), .completed(.seconds(600)),
  ]

  static func isPrime(_ number: Int) -> Bool {
    guard number > 1 else { return false }
    var divisor = 2
    while divisor * divisor <= number {
      if number % divisor == 0 { return false }
      divisor += 1
    }
    return true
  }

  // RxSwift: test_filterComplete (what follows the completion is never delivered)
  @Test func filterKeepsThePrimesUntilTheCompletion() {
    let source = scheduler.createHotObservable(
      Self.numbers + [
        .next(.seconds(610), 12), .error(.seconds(620), Self.failure), .completed(.seconds(630)),
      ]
    )
    let invoked = Counter()
    let observer = scheduler.start {
      source.filter { number in
        invoked.increment()
        return Self.isPrime(number)
      }
    }
    observer.assertEvents([
      .next(.seconds(230), 3), .next(.seconds(340), 5), .next(.seconds(390), 7),
      .next(.seconds(580), 11), .completed(.seconds(600)),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(600))])
    #expect(invoked.value == 9)
  }

  // RxSwift: test_filterTrue
  @Test func filterThatKeepsEverything() {
    let source = scheduler.createHotObservable(Self.numbers)
    let invoked = Counter()
    let observer = scheduler.start {
      source.filter { _ in
        invoked.increment()
        return true
      }
    }
    // Every value after the subscription (3 to 11, at their times), then the completion.
    observer.assertEvents(Array(Self.numbers.dropFirst(2)))
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(600))])
    #expect(invoked.value == 9)
  }

  // RxSwift: test_filterFalse
  @Test func filterThatKeepsNothing() {
    let source = scheduler.createHotObservable(Self.numbers)
    let invoked = Counter()
    let observer = scheduler.start {
      source.filter { _ in
        invoked.increment()
        return false
      }
    }
    observer.assertEvents([.completed(.seconds(600))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(600))])
    #expect(invoked.value == 9)
  }

  // RxSwift: test_filterDisposed
  @Test func filterDisposedEarly() {
    let source = scheduler.createHotObservable(Self.numbers)
    let invoked = Counter()
    let observer = scheduler.start(disposed: .seconds(400)) {
      source.filter { number in
        invoked.increment()
        return Self.isPrime(number)
      }
    }
    observer.assertEvents([
      .next(.seconds(230), 3), .next(.seconds(340), 5), .next(.seconds(390), 7),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(400))])
    #expect(invoked.value == 5)
  }

  // RxSwift: testFilterReleasesResourcesOnComplete, testFilter1ReleasesResourcesOnError. Their
  // testFilter2ReleasesResourcesOnError has a predicate that throws; Cascade's `filter` takes a
  // predicate that cannot (a stream's failures are typed: a failing test belongs upstream, in a
  // `tryMap`-like step of the stream's failure type), so it has no counterpart here.
  @Test func filterReleasesItsResources() {
    let completed = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable<Int, TestError>.just(1).filter { _ in true }
      .subscribe { completed.append($0) }
    let failed = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable<Int, TestError>.error(Self.failure).filter { _ in true }
      .subscribe { failed.append($0) }
    #expect(completed.values == [.next(1), .completed])
    #expect(failed.values == [.error(Self.failure)])
  }

  // RxSwift: testIgnoreElements_DoesNotSendValues
  @Test func ignoreElementsSendsOnlyTheCompletion() {
    let source = scheduler.createHotObservable([
      .next(.seconds(210), 1), .next(.seconds(220), 2), .completed(.seconds(230)),
    ])
    let observer = scheduler.start { source.ignoreElements() }
    observer.assertEvents([.completed(.seconds(230))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(230))])
  }

  // RxSwift: testIgnoreElementsReleasesResourcesOnComplete, ...OnError
  @Test func ignoreElementsReleasesItsResources() {
    let completed = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable<Int, TestError>.just(1).ignoreElements().subscribe { completed.append($0) }
    let failed = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable<Int, TestError>.error(Self.failure).ignoreElements()
      .subscribe { failed.append($0) }
    #expect(completed.values == [.completed])
    #expect(failed.values == [.error(Self.failure)])
  }
}
