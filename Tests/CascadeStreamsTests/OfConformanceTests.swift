import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's of and from cases (ReactiveX/RxSwift,
// Tests/RxSwiftTests/Observable+SequenceTests.swift), re-expressed on Cascade's `TestScheduler`.
// Only `testSequenceOf_complete_immediate` has a counterpart. The file's other ten cases emit
// on a scheduler, one element per tick (`of(_:scheduler:)`, `from(_:scheduler:)` of an array
// or an `AnySequence`, and their resource cases): Cascade's `of` and `from` emit every element
// at subscription, on the subscribing thread, and take no scheduler.
@Suite(.checksResources)
struct OfConformanceTests {
  let scheduler = TestScheduler()

  // RxSwift: testSequenceOf_complete_immediate
  @Test func emitsEveryElementAndCompletesAtSubscription() {
    let observer = scheduler.start { Observable<Int, Never>.of(3, 1, 2, 4) }
    observer.assertEvents([
      .next(.seconds(200), 3), .next(.seconds(200), 1), .next(.seconds(200), 2),
      .next(.seconds(200), 4), .completed(.seconds(200)),
    ])
  }
}
