import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's toArray cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+ToArrayTests.swift),
// re-expressed on Cascade's `TestScheduler`: the same cold and hot inputs, times, expected
// events and subscription windows. As in RxSwift, `toArray()` returns a `Single`.
@Suite(.checksResources)
struct ToArrayTests {
  static let failure = TestError("test")
  let scheduler = TestScheduler()

  func cold(_ events: [Recorded<StreamEvent<Int, TestError>>]) -> ColdObservable<Int, TestError> {
    scheduler.createColdObservable(events)
  }

  // RxSwift: test_ToArrayWithSingleItem_Return
  @Test func oneValue() {
    let source = cold([.next(.seconds(10), 1), .completed(.seconds(20))])
    let observer = scheduler.start { source.toArray().asObservable() }
    observer.assertEvents([.next(.seconds(220), [1]), .completed(.seconds(220))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(220))])
  }

  // RxSwift: test_ToArrayWithMultipleItems_Return
  @Test func severalValuesInOrder() {
    let source = cold([
      .next(.seconds(10), 1), .next(.seconds(20), 2), .next(.seconds(30), 3),
      .next(.seconds(40), 4), .completed(.seconds(50)),
    ])
    let observer = scheduler.start { source.toArray().asObservable() }
    observer.assertEvents([.next(.seconds(250), [1, 2, 3, 4]), .completed(.seconds(250))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: test_ToArrayWithNoItems_Empty
  @Test func emptyGivesAnEmptyArray() {
    let source = cold([.completed(.seconds(50))])
    let observer = scheduler.start { source.toArray().asObservable() }
    observer.assertEvents([.next(.seconds(250), []), .completed(.seconds(250))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: test_ToArrayWithSingleItem_Never
  @Test func never() {
    let source = scheduler.createHotObservable(
      [
        .next(.seconds(150), 1)
      ] as [Recorded<StreamEvent<Int, TestError>>]
    )
    let observer = scheduler.start { source.toArray().asObservable() }
    observer.assertEvents([])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(1000))])
  }

  // RxSwift: test_ToArrayWithImmediateError_Throw
  @Test func immediateFailure() {
    let source = cold([.error(.seconds(10), Self.failure)])
    let observer = scheduler.start { source.toArray().asObservable() }
    observer.assertEvents([.error(.seconds(210), Self.failure)])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(210))])
  }

  // RxSwift: test_ToArrayWithMultipleItems_Throw
  @Test func failureAfterValues() {
    let source = cold([
      .next(.seconds(10), 1), .next(.seconds(20), 2), .next(.seconds(30), 3),
      .next(.seconds(40), 4), .error(.seconds(50), Self.failure),
    ])
    let observer = scheduler.start { source.toArray().asObservable() }
    observer.assertEvents([.error(.seconds(250), Self.failure)])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testToArrayReleasesResourcesOnComplete, testToArrayReleasesResourcesOnError. The
  // suite's resource check fails if anything is left alive.
  @Test func releasesEverything() {
    let outcomes = Recorder<Result<[Int], TestError>>()
    Observable<Int, TestError>.just(1).toArray().subscribe { outcomes.append($0) }
    Observable<Int, TestError>.error(Self.failure).toArray().subscribe { outcomes.append($0) }
    #expect(outcomes.values == [.success([1]), .failure(Self.failure)])
  }

  @Test func valueAwaitsTheArray() async throws {
    #expect(try await Observable<Int, Never>.of(1, 2, 3).toArray().value == [1, 2, 3])
  }
}
