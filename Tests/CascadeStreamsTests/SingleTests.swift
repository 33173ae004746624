import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's cases for `Single` (ReactiveX/RxSwift, Tests/RxSwiftTests/SingleTest.swift, the
// subscription and `create` cases) and for `asSingle()` (Observable+PrimitiveSequenceTest.swift),
// re-expressed on Cascade's `TestScheduler`. Each test names the case it carries.
@Suite(.checksResources)
struct SingleTests {
  static let failure = TestError("test")
  typealias Report = @Sendable (Result<Int, TestError>) -> Void

  // RxSwift: testSingle_Subscription_success
  @Test func justSucceeds() {
    let outcomes = Recorder<Result<Int, TestError>>()
    Single<Int, TestError>.just(1).subscribe { outcomes.append($0) }
    #expect(outcomes.values == [.success(1)])
  }

  // RxSwift: testSingle_Subscription_error
  @Test func errorFails() {
    let outcomes = Recorder<Result<Int, TestError>>()
    Single<Int, TestError>.error(Self.failure).subscribe { outcomes.append($0) }
    #expect(outcomes.values == [.failure(Self.failure)])
  }

  // RxSwift: testSingle_Subscription_onDisposed
  @Test func disposingBeforeTheOutcomeCallsOnDisposedOnceAndDropsTheOutcome() {
    let scheduler = TestScheduler()
    let report = LockedBox<Report?>(nil)
    let subscription = SingleAssignmentDisposable()
    let disposals = Counter()
    let outcomes = Recorder<Result<Int, TestError>>()
    scheduler.schedule(after: .seconds(201)) {
      subscription.setDisposable(
        Single<Int, TestError>.create { observer in
          report.value = observer
          return Disposables.empty
        }
        .subscribe(
          onSuccess: { outcomes.append(.success($0)) },
          onFailure: { outcomes.append(.failure($0)) },
          onDisposed: { disposals.increment() }
        )
      )
    }
    scheduler.schedule(after: .seconds(202)) { subscription.dispose() }
    scheduler.schedule(after: .seconds(203)) { report.value?(.failure(Self.failure)) }
    scheduler.advance(to: SchedulerInstant(offset: .seconds(1000)))
    #expect(outcomes.values.isEmpty)
    #expect(disposals.value == 1)
    report.value = nil
  }

  // RxSwift: testSingle_Subscription_onDisposed_success, testSingle_Subscription_onDisposed_error
  @Test(arguments: [true, false])
  func onDisposedIsCalledOnceAfterTheOutcome(succeeds: Bool) {
    let single: Single<Int, TestError> = succeeds ? .just(1) : .error(Self.failure)
    let disposals = Counter()
    single.subscribe(onDisposed: { disposals.increment() })
    #expect(disposals.value == 1)
  }

  // RxSwift: testSingle_create_success. Only the first outcome counts; the teardown runs with it.
  @Test func createReportsTheFirstSuccessAndTearsDown() {
    let scheduler = TestScheduler()
    let report = LockedBox<Report?>(nil)
    let disposedAt = LockedBox<Duration?>(nil)
    scheduler.schedule(after: .seconds(201)) { report.value?(.success(1)) }
    scheduler.schedule(after: .seconds(202)) { report.value?(.success(1)) }
    scheduler.schedule(after: .seconds(203)) { report.value?(.failure(Self.failure)) }
    let observer = scheduler.start {
      Single<Int, TestError>.create { observer in
        report.value = observer
        return Disposables.create { disposedAt.value = scheduler.now.offset }
      }
      .asObservable()
    }
    observer.assertEvents([.next(.seconds(201), 1), .completed(.seconds(201))])
    #expect(disposedAt.value == .seconds(201))
    report.value = nil
  }

  // RxSwift: testSingle_create_error
  @Test func createReportsTheFirstFailureAndTearsDown() {
    let scheduler = TestScheduler()
    let report = LockedBox<Report?>(nil)
    let disposedAt = LockedBox<Duration?>(nil)
    scheduler.schedule(after: .seconds(201)) { report.value?(.failure(Self.failure)) }
    scheduler.schedule(after: .seconds(202)) { report.value?(.success(1)) }
    scheduler.schedule(after: .seconds(203)) { report.value?(.failure(Self.failure)) }
    let observer = scheduler.start {
      Single<Int, TestError>.create { observer in
        report.value = observer
        return Disposables.create { disposedAt.value = scheduler.now.offset }
      }
      .asObservable()
    }
    observer.assertEvents([.error(.seconds(201), Self.failure)])
    #expect(disposedAt.value == .seconds(201))
    report.value = nil
  }

  // RxSwift: testSingle_create_disposing
  @Test func createTearsDownOnDisposalAndDropsLaterOutcomes() {
    let scheduler = TestScheduler()
    let report = LockedBox<Report?>(nil)
    let disposedAt = LockedBox<Duration?>(nil)
    let subscription = SingleAssignmentDisposable()
    let observer = scheduler.createObserver(Int.self, failure: TestError.self)
    scheduler.schedule(after: .seconds(201)) {
      subscription.setDisposable(
        Single<Int, TestError>.create { observer in
          report.value = observer
          return Disposables.create { disposedAt.value = scheduler.now.offset }
        }
        .asObservable()
        .subscribe(observer)
      )
    }
    scheduler.schedule(after: .seconds(202)) { subscription.dispose() }
    scheduler.schedule(after: .seconds(203)) { report.value?(.success(1)) }
    scheduler.schedule(after: .seconds(204)) { report.value?(.failure(Self.failure)) }
    scheduler.advance(to: SchedulerInstant(offset: .seconds(1000)))
    observer.assertEvents([])
    #expect(disposedAt.value == .seconds(202))
    report.value = nil
  }

  // MARK: asSingle()

  // RxSwift: testAsSingle_Empty
  @Test func asSingleOfAnEmptyStreamFails() {
    let scheduler = TestScheduler()
    let source = scheduler.createHotObservable([
      .next(.seconds(150), 1), .completed(.seconds(250)), .error(.seconds(260), Self.failure),
    ])
    let observer = scheduler.start { source.asSingle().asObservable() }
    observer.assertEvents([.error(.seconds(250), .noElements)])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testAsSingle_One. The value is emitted when the stream completes.
  @Test func asSingleOfOneValueSucceedsAtCompletion() {
    let scheduler = TestScheduler()
    let source = scheduler.createHotObservable([
      .next(.seconds(150), 1), .next(.seconds(210), 2), .completed(.seconds(250)),
      .error(.seconds(260), Self.failure),
    ])
    let observer = scheduler.start { source.asSingle().asObservable() }
    observer.assertEvents([.next(.seconds(250), 2), .completed(.seconds(250))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testAsSingle_Many. The second value fails the single at once.
  @Test func asSingleOfManyValuesFailsAtTheSecond() {
    let scheduler = TestScheduler()
    let source = scheduler.createHotObservable([
      .next(.seconds(150), 1), .next(.seconds(210), 2), .next(.seconds(220), 3),
      .completed(.seconds(250)), .error(.seconds(260), Self.failure),
    ])
    let observer = scheduler.start { source.asSingle().asObservable() }
    observer.assertEvents([.error(.seconds(220), .moreThanOneElement)])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(220))])
  }

  // RxSwift: testAsSingle_Error, testAsSingle_Error2. The failure is wrapped, typed.
  @Test(arguments: [false, true])
  func asSingleOfAFailingStreamFails(withValueFirst: Bool) {
    let scheduler = TestScheduler()
    let events: [Recorded<StreamEvent<Int, TestError>>] =
      withValueFirst
      ? [.next(.seconds(150), 1), .next(.seconds(205), 2), .error(.seconds(210), Self.failure)]
      : [.next(.seconds(150), 1), .error(.seconds(210), Self.failure)]
    let source = scheduler.createHotObservable(events)
    let observer = scheduler.start { source.asSingle().asObservable() }
    observer.assertEvents([.error(.seconds(210), .failure(Self.failure))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(210))])
  }

  // RxSwift: testAsSingle_subscribeOnSuccess, testAsSingle_subscribeOnError
  @Test func subscribeWithSuccessAndFailureClosures() {
    let outcomes = Recorder<Result<Int, TestError>>()
    for single in [Single<Int, TestError>.just(1), .error(Self.failure)] {
      single.subscribe(
        onSuccess: { outcomes.append(.success($0)) },
        onFailure: { outcomes.append(.failure($0)) }
      )
    }
    #expect(outcomes.values == [.success(1), .failure(Self.failure)])
  }

  // RxSwift: testAsSingleReleasesResourcesOnComplete, testAsSingleReleasesResourcesOnError1/2.
  // The suite's resource check fails if anything is left alive.
  @Test func asSingleReleasesEverything() {
    let events = Recorder<Result<Int, ElementCountError<TestError>>>()
    Observable<Int, TestError>.just(1).asSingle().subscribe { events.append($0) }
    Observable<Int, TestError>.error(Self.failure).asSingle().subscribe { events.append($0) }
    Observable<Int, TestError>.of(1, 2).asSingle().subscribe { events.append($0) }
    #expect(
      events.values == [
        .success(1), .failure(.failure(Self.failure)), .failure(.moreThanOneElement),
      ]
    )
  }

  // MARK: async

  @Test func valueAwaitsTheSuccess() async throws {
    let single = Single<Int, TestError> { 42 }
    #expect(try await single.value == 42)
  }

  @Test func valueThrowsTheTypedFailure() async {
    let single = Single<Int, TestError>.error(Self.failure)
    await #expect(throws: Self.failure) { try await single.value }
  }

  @Test func cancellingTheAwaitingTaskThrowsCancellationAndDisposes() async {
    let disposed = Recorder<Bool>()
    let single = Single<Int, Never>.create { _ in
      Disposables.create { disposed.append(true) }
    }
    let task = Task { try await single.value }
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(await disposed.wait(forCount: 1))
  }

  @Test func asyncOperationIsCancelledWhenTheSubscriptionIsDisposed() async {
    let cancelled = Recorder<Bool>()
    let started = Recorder<Bool>()
    let single = Single<Int, Never> {
      started.append(true)
      try? await suspendUntilCancelled()
      cancelled.append(true)
      return 1
    }
    let outcomes = Recorder<Result<Int, Never>>()
    let subscription = single.subscribe { outcomes.append($0) }
    #expect(await started.wait(forCount: 1))
    subscription.dispose()
    #expect(await cancelled.wait(forCount: 1))
    #expect(outcomes.values.isEmpty)
  }
}
