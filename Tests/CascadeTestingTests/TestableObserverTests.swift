import CascadeStreams
import CascadeTesting
import Testing

@Suite(.checksResources)
struct TestableObserverTests {
  @Test func recordsEventsWithTheirVirtualTimes() {
    let scheduler = TestScheduler()
    let observer = scheduler.createObserver(Int.self, failure: TestError.self)
    scheduler.advance(by: .seconds(1))
    observer.onNext(1)
    scheduler.advance(by: .seconds(1))
    observer.onError(TestError("boom"))
    #expect(observer.events == [.next(.seconds(1), 1), .error(.seconds(2), TestError("boom"))])
    #expect(observer.values == [1])
    observer.assertEvents([.next(.seconds(1), 1), .error(.seconds(2), TestError("boom"))])
    observer.assertValues([1])
  }

  // A mismatch is reported as a test failure whose message is a readable diff.
  @Test func mismatchedEventsAreReportedWithADiff() {
    let scheduler = TestScheduler()
    let observer = scheduler.createObserver(Int.self)
    scheduler.advance(by: .seconds(1))
    observer.onNext(1)
    scheduler.advance(by: .seconds(1))
    observer.onNext(2)
    observer.onCompleted()
    withKnownIssue {
      observer.assertEvents(
        [.next(.seconds(1), 1), .next(.seconds(2), 3), .completed(.seconds(3))],
        "after two ticks"
      )
    } matching: { issue in
      let text = issue.description
      return text.contains("Recorded events differ from the expected ones: after two ticks")
        && text.contains("    [1]: .next(\n        2.0 seconds,\n  -     3\n  +     2\n      ),")
        && text.contains("-   [2]: .completed(3.0 seconds)")
        && text.contains("+   [2]: .completed(2.0 seconds)")
        && text.contains("(Expected: -, Actual: +)")
    }
  }

  @Test func mismatchedValuesAreReported() {
    let scheduler = TestScheduler()
    let observer = scheduler.createObserver(String.self)
    observer.onNext("a")
    withKnownIssue {
      observer.assertValues(["b"])
    } matching: { issue in
      issue.description.contains("Received values differ")
        && issue.description.contains(#"-   [0]: "b""#)
        && issue.description.contains(#"+   [0]: "a""#)
    }
  }

  @Test func failuresThatAreNotEquatableCompareByTheirDump() {
    struct Opaque: Error {
      let code: Int
    }
    let scheduler = TestScheduler()
    let observer = scheduler.createObserver(Int.self, failure: Opaque.self)
    observer.onError(Opaque(code: 7))
    observer.assertEvents([.error(.zero, Opaque(code: 7))])
    withKnownIssue {
      observer.assertEvents([.error(.zero, Opaque(code: 8))])
    } matching: { issue in
      issue.description.contains("code: 8") && issue.description.contains("code: 7")
    }
  }

  @Test func mismatchedSubscriptionsAreReported() {
    let scheduler = TestScheduler()
    let source = scheduler.createHotObservable([Recorded<StreamEvent<Int, Never>>]())
    let subscription = source.subscribe(scheduler.createObserver(Int.self))
    scheduler.advance(by: .seconds(3))
    subscription.dispose()
    source.assertSubscriptions([SubscriptionWindow(.zero, .seconds(3))])
    withKnownIssue {
      source.assertSubscriptions([SubscriptionWindow(.zero, .seconds(2))])
    } matching: { issue in
      issue.description.contains("-   [0]: SubscriptionWindow(0.0 seconds, 2.0 seconds)")
        && issue.description.contains("+   [0]: SubscriptionWindow(0.0 seconds, 3.0 seconds)")
    }
  }

  @Test func recordedValuesPrintReadably() {
    let next: Recorded<StreamEvent<Int, TestError>> = .next(.seconds(1), 5)
    let error: Recorded<StreamEvent<Int, TestError>> = .error(
      .milliseconds(1_500),
      TestError("boom")
    )
    #expect(next.description == "1.0 seconds: next(5)")
    #expect(error.description == "1.5 seconds: error(boom)")
    #expect(
      SubscriptionWindow(.seconds(200), .seconds(220)).description
        == "200.0 seconds ..< 220.0 seconds"
    )
    #expect(SubscriptionWindow(.seconds(200)).description == "200.0 seconds ..< (live)")
  }
}
