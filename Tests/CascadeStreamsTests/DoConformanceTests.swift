import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's do(on…) cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+DoOnTests.swift),
// re-expressed on Cascade's `TestScheduler`: the same hot inputs, times, expected events,
// subscription windows, side effects and their order. RxSwift's cases whose side effect throws
// (`testDoOnNext_throws`, `testDoOnError_throws`, `testDoOnCompleted_throws`) have no
// counterpart: Cascade's `do` takes side effects that cannot throw, as a stream's failures are
// typed.
@Suite(.checksResources)
struct DoConformanceTests {
  static let failure = TestError("test")
  let scheduler = TestScheduler()

  /// What the side effects and the source saw, in order.
  enum Step: Equatable, Sendable {
    case sourceSubscribe
    case sourceDispose
    case next(Int)
    case completed
    case error(TestError)
    case subscribe
    case subscribed
    case dispose
  }

  static let values: [Recorded<StreamEvent<Int, TestError>>] = [
    .next(.seconds(150), 1), .next(.seconds(210), 2), .next(.seconds(220), 3),
    .next(.seconds(230), 4), .next(.seconds(240), 5),
  ]

  static let valuesAfterTheSubscription: [Recorded<StreamEvent<Int, TestError>>] = Array(
    values.dropFirst()
  )

  func recordingEvents(
    of source: HotObservable<Int, TestError>,
    into steps: Recorder<Step>
  ) -> Streams.Do<HotObservable<Int, TestError>> {
    source.do(
      onNext: { steps.append(.next($0)) },
      onError: { steps.append(.error($0)) },
      onCompleted: { steps.append(.completed) }
    )
  }

  // RxSwift: testDoOn_shouldSeeAllValues, testDoOn_plainAction, testDoOn_nextCompleted,
  // testDoOn_nextErrorNot, testDoOnNext_normal, testDoOnCompleted_normal (one source, each
  // side effect seen: every value once, the completion, no failure)
  @Test func theSideEffectsSeeEveryValueAndTheCompletion() {
    let source = scheduler.createHotObservable(Self.values + [.completed(.seconds(250))])
    let steps = Recorder<Step>()
    let observer = scheduler.start { recordingEvents(of: source, into: steps) }
    #expect(steps.values == [.next(2), .next(3), .next(4), .next(5), .completed])
    observer.assertEvents(Self.valuesAfterTheSubscription + [.completed(.seconds(250))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testDoOn_nextError, testDoOnError_normal
  @Test func theSideEffectsSeeEveryValueAndTheFailure() {
    let source = scheduler.createHotObservable(Self.values + [.error(.seconds(250), Self.failure)])
    let steps = Recorder<Step>()
    let observer = scheduler.start { recordingEvents(of: source, into: steps) }
    #expect(steps.values == [.next(2), .next(3), .next(4), .next(5), .error(Self.failure)])
    observer.assertEvents(
      Self.valuesAfterTheSubscription + [.error(.seconds(250), Self.failure)]
    )
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testDoOn_completedNever
  @Test func aSourceThatNeverEnds() {
    let source: HotObservable<Int, TestError> = scheduler.createHotObservable([])
    let steps = Recorder<Step>()
    let observer = scheduler.start { recordingEvents(of: source, into: steps) }
    #expect(steps.values == [])
    observer.assertEvents([])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(1000))])
  }

  /// A source that records its subscription and disposal, and sends what `send` does.
  static func source(
    recordingInto steps: Recorder<Step>,
    send: @escaping @Sendable (AnyObserver<Int, TestError>) -> Void
  ) -> Observable<Int, TestError> {
    Observable<Int, TestError>.create { observer in
      steps.append(.sourceSubscribe)
      send(observer)
      return Disposables.create { steps.append(.sourceDispose) }
    }
  }

  static func recordingEverything(
    of source: Observable<Int, TestError>,
    into steps: Recorder<Step>
  ) -> Streams.Do<Observable<Int, TestError>> {
    source.do(
      onNext: { steps.append(.next($0)) },
      onError: { steps.append(.error($0)) },
      onCompleted: { steps.append(.completed) },
      onSubscribe: { steps.append(.subscribe) },
      onSubscribed: { steps.append(.subscribed) },
      onDispose: { steps.append(.dispose) }
    )
  }

  // RxSwift: testDoOnOrder_Completed_Async, asserting Cascade's order, which differs
  // in its last two steps: a stream ends at its terminal event, so `onDispose` runs as the
  // completion reaches the subscriber, and `Observable.create` runs its producer's teardown
  // after the completion has been delivered (as `create` documents); RxSwift disposes the
  // source first.
  @Test func theOrderOfAnAsynchronousCompletion() {
    let steps = Recorder<Step>()
    let scheduler = scheduler
    _ = scheduler.start {
      Self.recordingEverything(
        of: Self.source(recordingInto: steps) { observer in
          scheduler.schedule(after: .seconds(100)) {
            observer.onNext(0)
            observer.onCompleted()
          }
        },
        into: steps
      )
    }
    #expect(
      steps.values == [
        .subscribe, .sourceSubscribe, .subscribed, .next(0), .completed, .dispose, .sourceDispose,
      ]
    )
  }

  // RxSwift: testDoOnOrder_Completed_Sync
  @Test func theOrderOfASynchronousCompletion() {
    let steps = Recorder<Step>()
    _ = scheduler.start {
      Self.recordingEverything(
        of: Self.source(recordingInto: steps) { observer in
          observer.onNext(0)
          observer.onCompleted()
        },
        into: steps
      )
    }
    #expect(
      steps.values == [
        .subscribe, .sourceSubscribe, .next(0), .completed, .sourceDispose, .subscribed, .dispose,
      ]
    )
  }

  // RxSwift: testDoOnOrder_Error
  @Test func theOrderOfASynchronousFailure() {
    let steps = Recorder<Step>()
    _ = Self.recordingEverything(
      of: Self.source(recordingInto: steps) { observer in
        observer.onNext(0)
        observer.onError(Self.failure)
      },
      into: steps
    )
    .subscribe { _ in }
    #expect(
      steps.values == [
        .subscribe, .sourceSubscribe, .next(0), .error(Self.failure), .sourceDispose, .subscribed,
        .dispose,
      ]
    )
  }

  // RxSwift: testDoOnOrder_Dispose
  @Test func theOrderOfADisposal() {
    let steps = Recorder<Step>()
    Self.recordingEverything(
      of: Self.source(recordingInto: steps) { observer in observer.onNext(0) },
      into: steps
    )
    .subscribe { _ in }
    .dispose()
    #expect(
      steps.values == [
        .subscribe, .sourceSubscribe, .next(0), .subscribed, .sourceDispose, .dispose,
      ]
    )
  }

  // RxSwift: testDoReleasesResourcesOnComplete, testDoReleasesResourcesOnError (the suite's
  // resource check fails a test that leaves a subscription behind).
  @Test func doReleasesItsResources() {
    let events = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable<Int, TestError>.just(1).do().subscribe { events.append($0) }
    _ = Observable<Int, TestError>.error(Self.failure).do().subscribe { events.append($0) }
    #expect(events.values == [.next(1), .completed, .error(Self.failure)])
  }
}
