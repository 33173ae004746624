import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's cases for `Completable` (ReactiveX/RxSwift, Tests/RxSwiftTests/CompletableTest.swift,
// the subscription and `create` cases) and for `asCompletable()`
// (Observable+PrimitiveSequenceTest.swift), re-expressed on Cascade's `TestScheduler`.
@Suite(.checksResources)
struct CompletableTests {
  static let failure = TestError("test")
  typealias Report = @Sendable (CompletableEvent<TestError>) -> Void

  // RxSwift: testCompletable_Subscription_completed, testCompletable_Subscription_error
  @Test func eachOutcomeIsReportedOnce() {
    let outcomes = Recorder<CompletableEvent<TestError>>()
    for completable in [Completable<TestError>.empty(), .error(Self.failure)] {
      completable.subscribe { outcomes.append($0) }
    }
    #expect(outcomes.values == [.completed, .error(Self.failure)])
  }

  // RxSwift: testCompletable_Subscription_onDisposed
  @Test func disposingBeforeTheOutcomeCallsOnDisposedOnceAndDropsTheOutcome() {
    let scheduler = TestScheduler()
    let report = LockedBox<Report?>(nil)
    let subscription = SingleAssignmentDisposable()
    let disposals = Counter()
    let outcomes = Recorder<CompletableEvent<TestError>>()
    scheduler.schedule(after: .seconds(201)) {
      subscription.setDisposable(
        Completable<TestError>.create { observer in
          report.value = observer
          return Disposables.empty
        }
        .subscribe(
          onCompleted: { outcomes.append(.completed) },
          onError: { outcomes.append(.error($0)) },
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

  // RxSwift: testCompletable_Subscription_onDisposed_completed, _onDisposed_error
  @Test func onDisposedIsCalledOnceAfterEachOutcome() {
    let disposals = Counter()
    for completable in [Completable<TestError>.empty(), .error(Self.failure)] {
      completable.subscribe(onDisposed: { disposals.increment() })
    }
    #expect(disposals.value == 2)
  }

  // RxSwift: testCompletable_create_completed, testCompletable_create_error
  @Test(arguments: [CompletableEvent<TestError>.completed, .error(TestError("test"))])
  func createReportsTheFirstOutcomeAndTearsDown(first: CompletableEvent<TestError>) {
    let scheduler = TestScheduler()
    let report = LockedBox<Report?>(nil)
    let disposedAt = LockedBox<Duration?>(nil)
    scheduler.schedule(after: .seconds(201)) { report.value?(first) }
    scheduler.schedule(after: .seconds(202)) { report.value?(.completed) }
    scheduler.schedule(after: .seconds(203)) { report.value?(.error(Self.failure)) }
    let observer = scheduler.start {
      Completable<TestError>.create { observer in
        report.value = observer
        return Disposables.create { disposedAt.value = scheduler.now.offset }
      }
      .asObservable()
    }
    switch first {
    case .completed: observer.assertEvents([.completed(.seconds(201))])
    case .error(let failure): observer.assertEvents([.error(.seconds(201), failure)])
    }
    #expect(disposedAt.value == .seconds(201))
    report.value = nil
  }

  // RxSwift: testCompletable_create_disposing
  @Test func createTearsDownOnDisposalAndDropsLaterOutcomes() {
    let scheduler = TestScheduler()
    let report = LockedBox<Report?>(nil)
    let disposedAt = LockedBox<Duration?>(nil)
    let subscription = SingleAssignmentDisposable()
    let observer = scheduler.createObserver(Never.self, failure: TestError.self)
    scheduler.schedule(after: .seconds(201)) {
      subscription.setDisposable(
        Completable<TestError>.create { observer in
          report.value = observer
          return Disposables.create { disposedAt.value = scheduler.now.offset }
        }
        .asObservable()
        .subscribe(observer)
      )
    }
    scheduler.schedule(after: .seconds(202)) { subscription.dispose() }
    scheduler.schedule(after: .seconds(203)) { report.value?(.completed) }
    scheduler.schedule(after: .seconds(204)) { report.value?(.error(Self.failure)) }
    scheduler.advance(to: SchedulerInstant(offset: .seconds(1000)))
    observer.assertEvents([])
    #expect(disposedAt.value == .seconds(202))
    report.value = nil
  }

  // MARK: asCompletable()

  // RxSwift: testAsCompletable_Empty. RxSwift converts only a stream of `Never`; here any
  // stream converts, its values ignored.
  @Test func asCompletableOfACompletingStreamCompletes() {
    let scheduler = TestScheduler()
    let source = scheduler.createHotObservable(
      [
        .completed(.seconds(250)), .error(.seconds(260), Self.failure),
      ] as [Recorded<StreamEvent<Never, TestError>>]
    )
    let observer = scheduler.start { source.asCompletable().asObservable() }
    observer.assertEvents([.completed(.seconds(250))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testAsCompletable_Error
  @Test func asCompletableOfAFailingStreamFails() {
    let scheduler = TestScheduler()
    let source = scheduler.createHotObservable(
      [
        .error(.seconds(210), Self.failure)
      ] as [Recorded<StreamEvent<Never, TestError>>]
    )
    let observer = scheduler.start { source.asCompletable().asObservable() }
    observer.assertEvents([.error(.seconds(210), Self.failure)])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(210))])
  }

  @Test func asCompletableIgnoresValues() {
    let outcomes = Recorder<CompletableEvent<TestError>>()
    Observable<Int, TestError>.of(1, 2, 3).asCompletable().subscribe { outcomes.append($0) }
    #expect(outcomes.values == [.completed])
  }

  // RxSwift: testAsCompletable_subscribeOnCompleted, testAsCompletable_subscribeOnError
  @Test func subscribeWithAClosurePerOutcome() {
    let outcomes = Recorder<CompletableEvent<TestError>>()
    for completable in [Completable<TestError>.empty(), .error(Self.failure)] {
      completable.subscribe(
        onCompleted: { outcomes.append(.completed) },
        onError: { outcomes.append(.error($0)) }
      )
    }
    #expect(outcomes.values == [.completed, .error(Self.failure)])
  }

  // RxSwift: testAsCompletableReleasesResourcesOnComplete, testAsCompletableReleasesResourcesOnError.
  // The suite's resource check fails if anything is left alive.
  @Test func asCompletableReleasesEverything() {
    let outcomes = Recorder<CompletableEvent<TestError>>()
    Observable<Never, TestError>.empty().asCompletable().subscribe { outcomes.append($0) }
    Observable<Never, TestError>.error(Self.failure).asCompletable().subscribe {
      outcomes.append($0)
    }
    #expect(outcomes.values == [.completed, .error(Self.failure)])
  }

  // MARK: async

  @Test func runAwaitsCompletionOrThrowsTheFailure() async throws {
    let ran = Counter()
    try await Completable<TestError> { ran.increment() }.run()
    #expect(ran.value == 1)
    await #expect(throws: Self.failure) {
      try await Completable<TestError> { () throws(TestError) in throw Self.failure }.run()
    }
  }

  @Test func cancellingTheAwaitingTaskThrowsCancellation() async {
    let completable = Completable<Never>.never()
    let task = Task { try await completable.run() }
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
  }
}
