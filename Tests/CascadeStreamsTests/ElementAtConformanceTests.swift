import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's elementAt cases (ReactiveX/RxSwift,
// Tests/RxSwiftTests/Observable+ElementAtTests.swift), re-expressed on Cascade's
// `TestScheduler`: the same hot inputs, times, expected events and subscription windows. In
// one case Cascade differs on purpose: a source that completes before the index completes the
// result without a value, where RxSwift's fails with `RxError.argumentOutOfRange` (see
// `testElementAt_Complete_Before` below).
@Suite(.checksResources)
struct ElementAtConformanceTests {
  static let failure = RxSwiftInputs.failure
  let scheduler = TestScheduler()

  // RxSwift: testElementAt_Complete_After, testElementAt_Error_After (the value at index 10,
  // 72 at 460, arrives before the source ends)
  @Test(arguments: [
    Recorded<StreamEvent<Int, TestError>>.completed(.seconds(690)),
    .error(.seconds(690), failure),
  ])
  func theValueArrivesBeforeTheSourceEnds(_ ending: Recorded<StreamEvent<Int, TestError>>) {
    let source = scheduler.createHotObservable(RxSwiftInputs.values + [ending])
    let observer = scheduler.start { source.element(at: 10) }
    observer.assertEvents([.next(.seconds(460), 72), .completed(.seconds(460))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(460))])
  }

  // RxSwift: testElementAt_Complete_Before. Cascade differs on purpose: RxSwift's result fails
  // with `RxError.argumentOutOfRange` at 320; Cascade's completes there without a value, as
  // `first()` does on an empty stream. A stream's failure type is its source's, and "fewer
  // values than asked for" is no failure of the source's kind; a caller that needs the value
  // asks for it with `asSingle()`, whose failure is typed ``ElementCountError``.
  @Test func theSourceCompletesBeforeTheIndex() {
    let source = scheduler.createHotObservable(
      Array(RxSwiftInputs.values.prefix(7)) + [.completed(.seconds(320))]
    )
    let observer = scheduler.start { source.element(at: 10) }
    observer.assertEvents([.completed(.seconds(320))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(320))])
  }

  // RxSwift: testElementAt_Error_Before
  @Test func theSourceFailsBeforeTheIndex() {
    let source = scheduler.createHotObservable(
      Array(RxSwiftInputs.values.prefix(7)) + [.error(.seconds(310), Self.failure)]
    )
    let observer = scheduler.start { source.element(at: 10) }
    observer.assertEvents([.error(.seconds(310), Self.failure)])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(310))])
  }

  // RxSwift: testElementAt_Dispose_Before
  @Test func disposedBeforeTheIndex() {
    let source = scheduler.createHotObservable(
      RxSwiftInputs.values + [.error(.seconds(690), Self.failure)]
    )
    let observer = scheduler.start(disposed: .seconds(250)) { source.element(at: 3) }
    observer.assertEvents([])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testElementAt_Dispose_After
  @Test func disposedAfterTheValue() {
    let source = scheduler.createHotObservable(
      RxSwiftInputs.values + [.error(.seconds(690), Self.failure)]
    )
    let observer = scheduler.start(disposed: .seconds(400)) { source.element(at: 3) }
    observer.assertEvents([.next(.seconds(280), 1), .completed(.seconds(280))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(280))])
  }

  // RxSwift: testElementAt_First
  @Test func theFirstValue() {
    let source = scheduler.createHotObservable(
      Array(RxSwiftInputs.values.prefix(10)) + [.completed(.seconds(400))]
    )
    let observer = scheduler.start { source.element(at: 0) }
    observer.assertEvents([.next(.seconds(210), 9), .completed(.seconds(210))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(210))])
  }

  // RxSwift: testElementAtReleasesResourcesOnComplete, testElementAtReleasesResourcesOnError
  // (the suite's resource check fails a test that leaves a subscription behind).
  @Test func elementAtReleasesItsResources() {
    let completed = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable<Int, TestError>.just(1).element(at: 0).subscribe { completed.append($0) }
    let failed = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable<Int, TestError>.error(Self.failure).element(at: 1)
      .subscribe { failed.append($0) }
    #expect(completed.values == [.next(1), .completed])
    #expect(failed.values == [.error(Self.failure)])
  }
}
