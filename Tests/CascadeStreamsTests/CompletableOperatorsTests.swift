import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's cases for `Completable`'s `andThen` (ReactiveX/RxSwift,
// Tests/RxSwiftTests/Completable+AndThen.swift, the completable and observable cases) and for
// `concat` and `zip` (CompletableTest.swift), re-expressed on Cascade's `TestScheduler`.
@Suite(.checksResources)
struct CompletableOperatorsTests {
  static let failure = TestError("test")
  let scheduler = TestScheduler()

  func completable(
    _ events: [Recorded<StreamEvent<Never, TestError>>]
  ) -> HotObservable<Never, TestError> {
    scheduler.createHotObservable(events)
  }

  func values(
    _ events: [Recorded<StreamEvent<Int, TestError>>]
  ) -> HotObservable<Int, TestError> {
    scheduler.createHotObservable(events)
  }

  // MARK: andThen(Completable)

  // RxSwift: testCompletableEmpty_CompletableCompleted
  @Test func emptyThenCompletable() {
    let second = completable([.completed(.seconds(290))])
    let observer = scheduler.start {
      Completable<TestError>.empty().andThen(second.asCompletable()).asObservable()
    }
    observer.assertEvents([.completed(.seconds(290))])
    second.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(290))])
  }

  // RxSwift: testCompletableCompleted_CompletableCompleted
  @Test func completableThenCompletable() {
    let first = completable([.completed(.seconds(210))])
    let second = completable([.completed(.seconds(290))])
    let observer = scheduler.start {
      first.asCompletable().andThen(second.asCompletable()).asObservable()
    }
    observer.assertEvents([.completed(.seconds(290))])
    first.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(210))])
    second.assertSubscriptions([SubscriptionWindow(.seconds(210), .seconds(290))])
  }

  // RxSwift: testCompletableError_CompletableCompleted
  @Test func aFailureNeverStartsTheNextCompletable() {
    let first = completable([.error(.seconds(210), Self.failure)])
    let second = completable([.completed(.seconds(290))])
    let observer = scheduler.start {
      first.asCompletable().andThen(second.asCompletable()).asObservable()
    }
    observer.assertEvents([.error(.seconds(210), Self.failure)])
    first.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(210))])
    second.assertSubscriptions([])
  }

  // RxSwift: testCompletableCompleted_CompletableError
  @Test func theNextCompletablesFailurePasses() {
    let first = completable([.completed(.seconds(210))])
    let second = completable([.error(.seconds(290), Self.failure)])
    let observer = scheduler.start {
      first.asCompletable().andThen(second.asCompletable()).asObservable()
    }
    observer.assertEvents([.error(.seconds(290), Self.failure)])
    first.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(210))])
    second.assertSubscriptions([SubscriptionWindow(.seconds(210), .seconds(290))])
  }

  // MARK: andThen(Observable)

  // RxSwift: testCompletableEmpty_ObservableCompleted
  @Test func emptyThenStream() {
    let next = values([.next(.seconds(285), 1), .completed(.seconds(290))])
    let observer = scheduler.start { Completable<TestError>.empty().andThen(next) }
    observer.assertEvents([.next(.seconds(285), 1), .completed(.seconds(290))])
    next.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(290))])
  }

  // RxSwift: testCompletableCompleted_ObservableNormal, testCompletableCompleted_ObservableEmpty
  @Test(arguments: [true, false])
  func completableThenStream(withValue: Bool) {
    let first = completable([.completed(.seconds(210))])
    let next = values(
      withValue
        ? [.next(.seconds(280), 1), .completed(.seconds(290))] : [.completed(.seconds(290))]
    )
    let observer = scheduler.start { first.asCompletable().andThen(next) }
    observer.assertEvents(
      withValue
        ? [.next(.seconds(280), 1), .completed(.seconds(290))] : [.completed(.seconds(290))]
    )
    first.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(210))])
    next.assertSubscriptions([SubscriptionWindow(.seconds(210), .seconds(290))])
  }

  // RxSwift: testCompletableError_ObservableNormal
  @Test func aFailureNeverStartsTheStream() {
    let first = completable([.error(.seconds(210), Self.failure)])
    let next = values([.next(.seconds(280), 1), .completed(.seconds(290))])
    let observer = scheduler.start { first.asCompletable().andThen(next) }
    observer.assertEvents([.error(.seconds(210), Self.failure)])
    first.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(210))])
    next.assertSubscriptions([])
  }

  // RxSwift: testCompletableCompleted_ObservableError
  @Test func theStreamsFailurePasses() {
    let first = completable([.completed(.seconds(210))])
    let next = values([.error(.seconds(290), Self.failure)])
    let observer = scheduler.start { first.asCompletable().andThen(next) }
    observer.assertEvents([.error(.seconds(290), Self.failure)])
    first.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(210))])
    next.assertSubscriptions([SubscriptionWindow(.seconds(210), .seconds(290))])
  }

  // RxSwift: testAndThenCompletableReleasesResourcesOnComplete/OnError1/OnError2 and
  // testAndThenObservableReleasesResources…; the suite's resource check fails if anything is
  // left alive. Single and Maybe follow the same path.
  @Test func andThenReleasesEverything() {
    let outcomes = Recorder<String>()
    let empty = Completable<TestError>.empty()
    let failed = Completable<TestError>.error(Self.failure)
    empty.andThen(Completable.empty()).subscribe { outcomes.append("\($0)") }
    failed.andThen(Completable.empty()).subscribe { outcomes.append("\($0)") }
    empty.andThen(Completable.error(Self.failure)).subscribe { outcomes.append("\($0)") }
    empty.andThen(Observable.just(1)).subscribe { outcomes.append("\($0)") }
    failed.andThen(Observable.just(1)).subscribe { outcomes.append("\($0)") }
    empty.andThen(Observable<Int, TestError>.error(Self.failure))
      .subscribe { outcomes.append("\($0)") }
    empty.andThen(Single.just(1)).subscribe { outcomes.append("\($0)") }
    empty.andThen(Maybe<Int, TestError>.empty()).subscribe { outcomes.append("\($0)") }
    #expect(
      outcomes.values == [
        "completed", "error(test)", "error(test)", "next(1)", "completed", "error(test)",
        "error(test)", "success(1)", "completed",
      ]
    )
  }

  // MARK: andThen(Single), andThen(Maybe)

  // RxSwift converts the second stream with `asSingle()` or `asMaybe()`, whose failures here are
  // typed `ElementCountError<TestError>`: the completable is brought to that type with
  // `mapError(ElementCountError.failure)`, and RxSwift's `testError` reads `.failure(test)`.
  typealias Wrapped = ElementCountError<TestError>

  enum Trait: CaseIterable, Sendable {
    case single
    case maybe
  }

  func then(
    _ first: Completable<Wrapped>,
    _ next: HotObservable<Int, TestError>,
    as trait: Trait
  ) -> Observable<Int, Wrapped> {
    switch trait {
    case .single: first.andThen(next.asSingle()).asObservable()
    case .maybe: first.andThen(next.asMaybe()).asObservable()
    }
  }

  func wrapped(_ source: HotObservable<Never, TestError>) -> Completable<Wrapped> {
    source.mapError(Wrapped.failure).asCompletable()
  }

  // RxSwift: testCompletableEmpty_SingleCompleted, testCompletableEmpty_MaybeCompleted
  @Test(arguments: Trait.allCases)
  func emptyThenTrait(trait: Trait) {
    let next = values([.next(.seconds(285), 1), .completed(.seconds(290))])
    let observer = scheduler.start { then(.empty(), next, as: trait) }
    observer.assertEvents([.next(.seconds(290), 1), .completed(.seconds(290))])
    next.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(290))])
  }

  // RxSwift: testCompletableCompleted_SingleNormal, testCompletableCompleted_MaybeNormal
  @Test(arguments: Trait.allCases)
  func completableThenTrait(trait: Trait) {
    let first = completable([.completed(.seconds(210))])
    let next = values([.next(.seconds(290), 1), .completed(.seconds(290))])
    let observer = scheduler.start { then(wrapped(first), next, as: trait) }
    observer.assertEvents([.next(.seconds(290), 1), .completed(.seconds(290))])
    first.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(210))])
    next.assertSubscriptions([SubscriptionWindow(.seconds(210), .seconds(290))])
  }

  // RxSwift: testCompletableError_SingleNormal, testCompletableError_MaybeNormal
  @Test(arguments: Trait.allCases)
  func aFailureNeverStartsTheTrait(trait: Trait) {
    let first = completable([.error(.seconds(210), Self.failure)])
    let next = values([.next(.seconds(290), 1), .completed(.seconds(290))])
    let observer = scheduler.start { then(wrapped(first), next, as: trait) }
    observer.assertEvents([.error(.seconds(210), .failure(Self.failure))])
    first.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(210))])
    next.assertSubscriptions([])
  }

  // RxSwift: testCompletableCompleted_SingleError, testCompletableCompleted_MaybeError
  @Test(arguments: Trait.allCases)
  func theTraitsFailurePasses(trait: Trait) {
    let first = completable([.completed(.seconds(210))])
    let next = values([.error(.seconds(290), Self.failure)])
    let observer = scheduler.start { then(wrapped(first), next, as: trait) }
    observer.assertEvents([.error(.seconds(290), .failure(Self.failure))])
    first.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(210))])
    next.assertSubscriptions([SubscriptionWindow(.seconds(210), .seconds(290))])
  }

  // RxSwift: testCompletableCompleted_MaybeEmpty
  @Test func completableThenAnEmptyMaybe() {
    let first = completable([.completed(.seconds(210))])
    let next = values([.completed(.seconds(290))])
    let observer = scheduler.start { then(wrapped(first), next, as: .maybe) }
    observer.assertEvents([.completed(.seconds(290))])
    first.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(210))])
    next.assertSubscriptions([SubscriptionWindow(.seconds(210), .seconds(290))])
  }

  // RxSwift: testAndThenSingleReleasesResources…, testAndThenMaybeReleasesResources… (3 each);
  // the suite's resource check fails if anything is left alive.
  @Test func andThenATraitReleasesEverything() {
    let outcomes = Recorder<String>()
    let empty = Completable<TestError>.empty()
    let failed = Completable<TestError>.error(Self.failure)
    empty.andThen(Single.just(1)).subscribe { outcomes.append("\($0)") }
    failed.andThen(Single.just(1)).subscribe { outcomes.append("\($0)") }
    empty.andThen(Single<Int, TestError>.error(Self.failure)).subscribe {
      outcomes.append("\($0)")
    }
    empty.andThen(Maybe.just(1)).subscribe { outcomes.append("\($0)") }
    failed.andThen(Maybe.just(1)).subscribe { outcomes.append("\($0)") }
    empty.andThen(Maybe<Int, TestError>.error(Self.failure)).subscribe {
      outcomes.append("\($0)")
    }
    #expect(
      outcomes.values == [
        "success(1)", "failure(test)", "failure(test)", "success(1)", "error(test)",
        "error(test)",
      ]
    )
  }

  // MARK: concat and zip (CompletableTest.swift)

  // RxSwift: test_concat, test_concat_sequence, test_concat_collection, test_concat_variadic
  @Test func concat() {
    let empty = Completable<TestError>.empty()
    for concatenated in [
      empty.concat(empty), Completable.concat([empty]), Completable.concat(empty, empty),
    ] {
      let scheduler = TestScheduler()
      let observer = scheduler.start { concatenated.asObservable() }
      observer.assertEvents([.completed(.seconds(200))])
    }
  }

  // RxSwift: test_zip_collection, test_zip_array, test_zip_variadic
  @Test func zip() {
    let empty = Completable<TestError>.empty()
    for zipped in [Completable.zip([empty, empty]), Completable.zip(empty, empty)] {
      let scheduler = TestScheduler()
      let observer = scheduler.start { zipped.asObservable() }
      observer.assertEvents([.completed(.seconds(200))])
    }
  }

  @Test func zipWaitsForEveryCompletable() {
    let first = completable([.completed(.seconds(210))])
    let second = completable([.completed(.seconds(230))])
    let observer = scheduler.start {
      Completable.zip(first.asCompletable(), second.asCompletable()).asObservable()
    }
    observer.assertEvents([.completed(.seconds(230))])
  }
}
