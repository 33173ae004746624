import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's cases for `Maybe` (ReactiveX/RxSwift, Tests/RxSwiftTests/MaybeTest.swift, the
// subscription and `create` cases) and for `asMaybe()` (Observable+PrimitiveSequenceTest.swift),
// re-expressed on Cascade's `TestScheduler`. Each test names the case it carries.
@Suite(.checksResources)
struct MaybeTests {
  static let failure = TestError("test")
  typealias Report = @Sendable (MaybeEvent<Int, TestError>) -> Void

  // RxSwift: testMaybe_Subscription_success, testMaybe_Subscription_completed,
  // testMaybe_Subscription_error
  @Test func eachOutcomeIsReportedOnce() {
    let outcomes = Recorder<MaybeEvent<Int, TestError>>()
    for maybe in [Maybe<Int, TestError>.just(1), .empty(), .error(Self.failure)] {
      maybe.subscribe { outcomes.append($0) }
    }
    #expect(outcomes.values == [.success(1), .completed, .error(Self.failure)])
  }

  // RxSwift: testMaybe_Subscription_onDisposed
  @Test func disposingBeforeTheOutcomeCallsOnDisposedOnceAndDropsTheOutcome() {
    let scheduler = TestScheduler()
    let report = LockedBox<Report?>(nil)
    let subscription = SingleAssignmentDisposable()
    let disposals = Counter()
    let outcomes = Recorder<MaybeEvent<Int, TestError>>()
    scheduler.schedule(after: .seconds(201)) {
      subscription.setDisposable(
        Maybe<Int, TestError>.create { observer in
          report.value = observer
          return Disposables.empty
        }
        .subscribe(
          onSuccess: { outcomes.append(.success($0)) },
          onError: { outcomes.append(.error($0)) },
          onCompleted: { outcomes.append(.completed) },
          onDisposed: { disposals.increment() }
        )
      )
    }
    scheduler.schedule(after: .seconds(202)) { subscription.dispose() }
    scheduler.schedule(after: .seconds(203)) { report.value?(.error(Self.failure)) }
    scheduler.advance(to: SchedulerInstant(offset: .seconds(1000)))
    #expect(outcomes.values.isEmpty)
    #expect(disposals.value == 1)
    report.value = nil
  }

  // RxSwift: testMaybe_Subscription_onDisposed_success, _onDisposed_completed, _onDisposed_error
  @Test func onDisposedIsCalledOnceAfterEachOutcome() {
    let disposals = Counter()
    for maybe in [Maybe<Int, TestError>.just(1), .empty(), .error(Self.failure)] {
      maybe.subscribe(onDisposed: { disposals.increment() })
    }
    #expect(disposals.value == 3)
  }

  // RxSwift: testMaybe_create_success, testMaybe_create_completed, testMaybe_create_error.
  // Only the first outcome counts; the teardown runs with it.
  @Test(arguments: [
    MaybeEvent<Int, TestError>.success(1), .completed, .error(TestError("test")),
  ])
  func createReportsTheFirstOutcomeAndTearsDown(first: MaybeEvent<Int, TestError>) {
    let scheduler = TestScheduler()
    let report = LockedBox<Report?>(nil)
    let disposedAt = LockedBox<Duration?>(nil)
    scheduler.schedule(after: .seconds(201)) { report.value?(first) }
    scheduler.schedule(after: .seconds(202)) { report.value?(.success(1)) }
    scheduler.schedule(after: .seconds(203)) { report.value?(.completed) }
    scheduler.schedule(after: .seconds(204)) { report.value?(.error(Self.failure)) }
    let observer = scheduler.start {
      Maybe<Int, TestError>.create { observer in
        report.value = observer
        return Disposables.create { disposedAt.value = scheduler.now.offset }
      }
      .asObservable()
    }
    switch first {
    case .success(let value):
      observer.assertEvents([.next(.seconds(201), value), .completed(.seconds(201))])
    case .completed:
      observer.assertEvents([.completed(.seconds(201))])
    case .error(let failure):
      observer.assertEvents([.error(.seconds(201), failure)])
    }
    #expect(disposedAt.value == .seconds(201))
    report.value = nil
  }

  // RxSwift: testMaybe_create_disposing
  @Test func createTearsDownOnDisposalAndDropsLaterOutcomes() {
    let scheduler = TestScheduler()
    let report = LockedBox<Report?>(nil)
    let disposedAt = LockedBox<Duration?>(nil)
    let subscription = SingleAssignmentDisposable()
    let observer = scheduler.createObserver(Int.self, failure: TestError.self)
    scheduler.schedule(after: .seconds(201)) {
      subscription.setDisposable(
        Maybe<Int, TestError>.create { observer in
          report.value = observer
          return Disposables.create { disposedAt.value = scheduler.now.offset }
        }
        .asObservable()
        .subscribe(observer)
      )
    }
    scheduler.schedule(after: .seconds(202)) { subscription.dispose() }
    scheduler.schedule(after: .seconds(203)) { report.value?(.success(1)) }
    scheduler.schedule(after: .seconds(204)) { report.value?(.completed) }
    scheduler.schedule(after: .seconds(205)) { report.value?(.error(Self.failure)) }
    scheduler.advance(to: SchedulerInstant(offset: .seconds(1000)))
    observer.assertEvents([])
    #expect(disposedAt.value == .seconds(202))
    report.value = nil
  }

  // MARK: asMaybe()

  // RxSwift: testAsMaybe_Empty
  @Test func asMaybeOfAnEmptyStreamCompletes() {
    let scheduler = TestScheduler()
    let source = scheduler.createHotObservable([
      .next(.seconds(150), 1), .completed(.seconds(250)), .error(.seconds(260), Self.failure),
    ])
    let observer = scheduler.start { source.asMaybe().asObservable() }
    observer.assertEvents([.completed(.seconds(250))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testAsMaybe_One
  @Test func asMaybeOfOneValueSucceedsAtCompletion() {
    let scheduler = TestScheduler()
    let source = scheduler.createHotObservable([
      .next(.seconds(150), 1), .next(.seconds(210), 2), .completed(.seconds(250)),
      .error(.seconds(260), Self.failure),
    ])
    let observer = scheduler.start { source.asMaybe().asObservable() }
    observer.assertEvents([.next(.seconds(250), 2), .completed(.seconds(250))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testAsMaybe_Many
  @Test func asMaybeOfManyValuesFailsAtTheSecond() {
    let scheduler = TestScheduler()
    let source = scheduler.createHotObservable([
      .next(.seconds(150), 1), .next(.seconds(210), 2), .next(.seconds(220), 3),
      .completed(.seconds(250)), .error(.seconds(260), Self.failure),
    ])
    let observer = scheduler.start { source.asMaybe().asObservable() }
    observer.assertEvents([.error(.seconds(220), .moreThanOneElement)])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(220))])
  }

  // RxSwift: testAsMaybe_Error, testAsMaybe_Error2
  @Test(arguments: [false, true])
  func asMaybeOfAFailingStreamFails(withValueFirst: Bool) {
    let scheduler = TestScheduler()
    let events: [Recorded<StreamEvent<Int, TestError>>] =
      withValueFirst
      ? [.next(.seconds(150), 1), .next(.seconds(205), 2), .error(.seconds(210), Self.failure)]
      : [.next(.seconds(150), 1), .error(.seconds(210), Self.failure)]
    let source = scheduler.createHotObservable(events)
    let observer = scheduler.start { source.asMaybe().asObservable() }
    observer.assertEvents([.error(.seconds(210), .failure(Self.failure))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(210))])
  }

  // RxSwift: testAsMaybe_subscribeOnSuccess, _subscribeOnError, _subscribeOnCompleted
  @Test func subscribeWithAClosurePerOutcome() {
    let outcomes = Recorder<MaybeEvent<Int, TestError>>()
    for maybe in [Maybe<Int, TestError>.just(1), .error(Self.failure), .empty()] {
      maybe.subscribe(
        onSuccess: { outcomes.append(.success($0)) },
        onError: { outcomes.append(.error($0)) },
        onCompleted: { outcomes.append(.completed) }
      )
    }
    #expect(outcomes.values == [.success(1), .error(Self.failure), .completed])
  }

  // RxSwift: testAsMaybeReleasesResourcesOnComplete1/2, testAsMaybeReleasesResourcesOnError1/2.
  // The suite's resource check fails if anything is left alive.
  @Test func asMaybeReleasesEverything() {
    let outcomes = Recorder<MaybeEvent<Int, ElementCountError<TestError>>>()
    Observable<Int, TestError>.empty().asMaybe().subscribe { outcomes.append($0) }
    Observable<Int, TestError>.just(1).asMaybe().subscribe { outcomes.append($0) }
    Observable<Int, TestError>.error(Self.failure).asMaybe().subscribe { outcomes.append($0) }
    Observable<Int, TestError>.of(1, 2).asMaybe().subscribe { outcomes.append($0) }
    #expect(
      outcomes.values == [
        .completed, .success(1), .error(.failure(Self.failure)), .error(.moreThanOneElement),
      ]
    )
  }

  // MARK: async

  @Test func valueIsTheSuccessOrNil() async throws {
    #expect(try await Maybe<Int, TestError>.just(1).value == 1)
    #expect(try await Maybe<Int, TestError>.empty().value == nil)
    await #expect(throws: Self.failure) {
      try await Maybe<Int, TestError>.error(Self.failure).value
    }
  }

  @Test func cancellingTheAwaitingTaskThrowsCancellation() async {
    let maybe = Maybe<Int, Never>.never()
    let task = Task { try await maybe.value }
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
  }
}
