import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's skipWhile cases (ReactiveX/RxSwift,
// Tests/RxSwiftTests/Observable+SkipWhileTests.swift), re-expressed on Cascade's
// `TestScheduler`: the same hot inputs, times, expected events, subscription windows and
// predicate calls. RxSwift's `testSkipWhile_Throw` has a predicate
// that throws; Cascade's `skip(while:)` takes a predicate that cannot (a stream's failures are
// typed, and a failing test belongs in a step of the stream's failure type), so it has no
// counterpart here.
@Suite(.checksResources)
struct SkipWhileConformanceTests {
  static let failure = RxSwiftInputs.failure
  let scheduler = TestScheduler()

  /// `skip(while:)` with RxSwift's predicate, counting its calls in `invoked`.
  func primes(
    _ source: HotObservable<Int, TestError>,
    _ invoked: Counter
  ) -> Observable<Int, TestError> {
    source.skip(while: { number in
      invoked.increment()
      return RxSwiftInputs.isPrime(number)
    })
  }

  /// The values from the first that is not prime, 4 at 390, to 23 at 500.
  static let afterThePrimes: [Recorded<StreamEvent<Int, TestError>>] = Array(
    RxSwiftInputs.primesFirst.dropFirst(7)
  )

  // RxSwift: testSkipWhile_Complete_Before
  @Test func theSourceCompletesWhileSkipping() {
    var input = Array(RxSwiftInputs.primesFirst.prefix(6))
    input.append(.completed(.seconds(330)))
    input += RxSwiftInputs.primesFirst.dropFirst(6) + [.completed(.seconds(600))]
    let source = scheduler.createHotObservable(input)
    let invoked = Counter()
    let observer = scheduler.start { primes(source, invoked) }
    observer.assertEvents([.completed(.seconds(330))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(330))])
    #expect(invoked.value == 4)
  }

  // RxSwift: testSkipWhile_Complete_After, testSkipWhile_Error_After
  @Test(arguments: [
    Recorded<StreamEvent<Int, TestError>>.completed(.seconds(600)),
    .error(.seconds(600), failure),
  ])
  func theSourceEndsAfterSkipping(_ ending: Recorded<StreamEvent<Int, TestError>>) {
    let source = scheduler.createHotObservable(RxSwiftInputs.primesFirst + [ending])
    let invoked = Counter()
    let observer = scheduler.start { primes(source, invoked) }
    observer.assertEvents(Self.afterThePrimes + [ending])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(600))])
    #expect(invoked.value == 6)
  }

  // RxSwift: testSkipWhile_Error_Before
  @Test func theSourceFailsWhileSkipping() {
    var input = Array(RxSwiftInputs.primesFirst.prefix(4))
    input.append(.error(.seconds(270), Self.failure))
    input += RxSwiftInputs.primesFirst.dropFirst(4)
    let source = scheduler.createHotObservable(input)
    let invoked = Counter()
    let observer = scheduler.start { primes(source, invoked) }
    observer.assertEvents([.error(.seconds(270), Self.failure)])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(270))])
    #expect(invoked.value == 2)
  }

  // RxSwift: testSkipWhile_Dispose_Before
  @Test func disposedWhileSkipping() {
    let source = scheduler.createHotObservable(
      RxSwiftInputs.primesFirst + [.completed(.seconds(600))]
    )
    let invoked = Counter()
    let observer = scheduler.start(disposed: .seconds(300)) { primes(source, invoked) }
    observer.assertEvents([])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(300))])
    #expect(invoked.value == 3)
  }

  // RxSwift: testSkipWhile_Dispose_After
  @Test func disposedAfterSkipping() {
    let source = scheduler.createHotObservable(
      RxSwiftInputs.primesFirst + [.completed(.seconds(600))]
    )
    let invoked = Counter()
    let observer = scheduler.start(disposed: .seconds(470)) { primes(source, invoked) }
    observer.assertEvents(Array(Self.afterThePrimes.prefix(3)))
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(470))])
    #expect(invoked.value == 6)
  }

  // RxSwift: testSkipWhile_Zero (the predicate fails at once and is not called again)
  @Test func theFirstValueFailsThePredicate() {
    var input = Array(RxSwiftInputs.primesFirst.prefix(2))
    input.append(.next(.seconds(205), 100))
    input += RxSwiftInputs.primesFirst.dropFirst(2) + [.completed(.seconds(600))]
    let source = scheduler.createHotObservable(input)
    let invoked = Counter()
    let observer = scheduler.start { primes(source, invoked) }
    observer.assertEvents(Array(input.dropFirst(2)))
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(600))])
    #expect(invoked.value == 1)
  }

  // RxSwift: testSkipWhileReleasesResourcesOnComplete, testSkipWhileReleasesResourcesOnError
  // (the suite's resource check fails a test that leaves a subscription behind).
  @Test func skipWhileReleasesItsResources() {
    let completed = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable<Int, TestError>.just(1).skip(while: { _ in true })
      .subscribe { completed.append($0) }
    let failed = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable<Int, TestError>.error(Self.failure).skip(while: { _ in true })
      .subscribe { failed.append($0) }
    #expect(completed.values == [.completed])
    #expect(failed.values == [.error(Self.failure)])
  }
}
