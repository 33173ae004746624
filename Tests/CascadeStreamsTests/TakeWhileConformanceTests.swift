import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's takeWhile cases (ReactiveX/RxSwift,
// Tests/RxSwiftTests/Observable+TakeWhileTests.swift), re-expressed on Cascade's
// `TestScheduler`: the same hot inputs, times, expected events, subscription windows and
// predicate calls. RxSwift's `take(while:behavior: .exclusive)` is
// Cascade's `take(while:)`, which never emits the value that ends it.
//
// Not carried here: the eight `testTakeWhile_Inclusive_…` cases, as Cascade's `take(while:)` has
// no inclusive behaviour (emitting the first value that fails the predicate as well); and
// `testTakeWhile_Exclusive_Throw` and `testTakeWhile2ReleasesResourcesOnError`, whose predicates
// throw: Cascade's takes a predicate that cannot (a stream's failures are typed, and a failing
// test belongs in a step of the stream's failure type).
@Suite(.checksResources)
struct TakeWhileConformanceTests {
  static let failure = RxSwiftInputs.failure
  let scheduler = TestScheduler()

  /// `take(while:)` with RxSwift's predicate, counting its calls in `invoked`.
  func primes(
    _ source: HotObservable<Int, TestError>,
    _ invoked: Counter
  ) -> Observable<Int, TestError> {
    source.take(while: { number in
      invoked.increment()
      return RxSwiftInputs.isPrime(number)
    })
  }

  /// The five primes the input starts with after the subscription, 2 to 7, the last at 350.
  static let leadingPrimes: [Recorded<StreamEvent<Int, TestError>>] = [
    .next(.seconds(210), 2), .next(.seconds(260), 5), .next(.seconds(290), 13),
    .next(.seconds(320), 3), .next(.seconds(350), 7),
  ]

  // RxSwift: testTakeWhile_Exclusive_Complete_Before
  @Test func theSourceCompletesWhileThePredicateHolds() {
    var input = Array(RxSwiftInputs.primesFirst.prefix(6))
    input.append(.completed(.seconds(330)))
    input += RxSwiftInputs.primesFirst.dropFirst(6) + [.completed(.seconds(600))]
    let source = scheduler.createHotObservable(input)
    let invoked = Counter()
    let observer = scheduler.start { primes(source, invoked) }
    observer.assertEvents(Array(Self.leadingPrimes.prefix(4)) + [.completed(.seconds(330))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(330))])
    #expect(invoked.value == 4)
  }

  // RxSwift: testTakeWhile_Exclusive_Complete_After, testTakeWhile_Exclusive_Error_After (the
  // predicate fails at 390, before the source ends)
  @Test(arguments: [
    Recorded<StreamEvent<Int, TestError>>.completed(.seconds(600)),
    .error(.seconds(600), failure),
  ])
  func thePredicateFailsBeforeTheSourceEnds(_ ending: Recorded<StreamEvent<Int, TestError>>) {
    let source = scheduler.createHotObservable(RxSwiftInputs.primesFirst + [ending])
    let invoked = Counter()
    let observer = scheduler.start { primes(source, invoked) }
    observer.assertEvents(Self.leadingPrimes + [.completed(.seconds(390))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(390))])
    #expect(invoked.value == 6)
  }

  // RxSwift: testTakeWhile_Exclusive_Error_Before
  @Test func theSourceFailsWhileThePredicateHolds() {
    var input = Array(RxSwiftInputs.primesFirst.prefix(4))
    input.append(.error(.seconds(270), Self.failure))
    input += RxSwiftInputs.primesFirst.dropFirst(4) + [.completed(.seconds(600))]
    let source = scheduler.createHotObservable(input)
    let invoked = Counter()
    let observer = scheduler.start { primes(source, invoked) }
    observer.assertEvents(
      Array(Self.leadingPrimes.prefix(2)) + [.error(.seconds(270), Self.failure)]
    )
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(270))])
    #expect(invoked.value == 2)
  }

  // RxSwift: testTakeWhile_Exclusive_Dispose_Before
  @Test func disposedWhileThePredicateHolds() {
    let source = scheduler.createHotObservable(
      RxSwiftInputs.primesFirst + [.error(.seconds(600), Self.failure)]
    )
    let invoked = Counter()
    let observer = scheduler.start(disposed: .seconds(300)) { primes(source, invoked) }
    observer.assertEvents(Array(Self.leadingPrimes.prefix(3)))
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(300))])
    #expect(invoked.value == 3)
  }

  // RxSwift: testTakeWhile_Exclusive_Dispose_After
  @Test func disposedAfterThePredicateFailed() {
    let source = scheduler.createHotObservable(
      RxSwiftInputs.primesFirst + [.error(.seconds(600), Self.failure)]
    )
    let invoked = Counter()
    let observer = scheduler.start(disposed: .seconds(400)) { primes(source, invoked) }
    observer.assertEvents(Self.leadingPrimes + [.completed(.seconds(390))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(390))])
    #expect(invoked.value == 6)
  }

  // RxSwift: testTakeWhile_Exclusive_Zero
  @Test func theFirstValueFailsThePredicate() {
    var input = Array(RxSwiftInputs.primesFirst.prefix(2))
    input.append(.next(.seconds(205), 100))
    input += RxSwiftInputs.primesFirst.dropFirst(2) + [.error(.seconds(600), Self.failure)]
    let source = scheduler.createHotObservable(input)
    let invoked = Counter()
    let observer = scheduler.start(disposed: .seconds(300)) { primes(source, invoked) }
    observer.assertEvents([.completed(.seconds(205))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(205))])
    #expect(invoked.value == 1)
  }

  // RxSwift: testTakeWhileReleasesResourcesOnComplete, testTakeWhile1ReleasesResourcesOnError
  // (the suite's resource check fails a test that leaves a subscription behind).
  @Test func takeWhileReleasesItsResources() {
    let completed = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable<Int, TestError>.just(1).take(while: { _ in true })
      .subscribe { completed.append($0) }
    let failed = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable<Int, TestError>.error(Self.failure).take(while: { _ in true })
      .subscribe { failed.append($0) }
    #expect(completed.values == [.next(1), .completed])
    #expect(failed.values == [.error(Self.failure)])
  }
}
