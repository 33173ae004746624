import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's using cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+UsingTests.swift),
// re-expressed on Cascade's `TestScheduler`: the same inputs, times, expected events,
// subscription windows and resource lifetimes.
@Suite(.checksResources)
struct UsingTests {
  static let failure = TestError("test")

  /// A resource that records the virtual times it was made and disposed of.
  final class Resource: Disposable {
    let ticks = Recorder<Duration>()
    let scheduler: TestScheduler

    init(scheduler: TestScheduler) {
      self.scheduler = scheduler
      ticks.append(scheduler.now.offset)
    }

    func dispose() { ticks.append(scheduler.now.offset) }
  }

  let scheduler = TestScheduler()
  let made = LockedBox<Resource?>(nil)
  let used = LockedBox<Resource?>(nil)
  let source = LockedBox<ColdObservable<Int, TestError>?>(nil)
  let resourceCalls = Counter()
  let factoryCalls = Counter()

  /// `using` with a resource, whose stream is `events`, cold, its first value being the time it
  /// was built.
  func stream(
    _ events: @escaping @Sendable (Int) -> [Recorded<StreamEvent<Int, TestError>>]
  ) -> Observable<Int, TestError> {
    // The stream's type is spelled: Swift 6.3 does not infer `Failure` from the result type
    // through closures that throw `Failure` ("invalid conversion of thrown error type 'Never'").
    Observable<Int, TestError>.using {
      resourceCalls.increment()
      let resource = Resource(scheduler: scheduler)
      made.value = resource
      return resource
    } observableFactory: { resource in
      used.value = resource
      factoryCalls.increment()
      let cold = scheduler.createColdObservable(
        events(Int(scheduler.now.offset.components.seconds))
      )
      source.value = cold
      return cold.asObservable()
    }
  }

  func expectOneCallEach() {
    #expect(resourceCalls.value == 1)
    #expect(factoryCalls.value == 1)
    #expect(made.value === used.value)
  }

  // RxSwift: testUsing_Complete
  @Test func theResourceLastsUntilCompletion() {
    let observer = scheduler.start {
      stream { now in [.next(.seconds(100), now), .completed(.seconds(200))] }
    }
    observer.assertEvents([.next(.seconds(300), 200), .completed(.seconds(400))])
    expectOneCallEach()
    source.value?.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(400))])
    #expect(made.value?.ticks.values == [.seconds(200), .seconds(400)])
  }

  // RxSwift: testUsing_Error
  @Test func theResourceLastsUntilFailure() {
    let observer = scheduler.start {
      stream { now in [.next(.seconds(100), now), .error(.seconds(200), Self.failure)] }
    }
    observer.assertEvents([.next(.seconds(300), 200), .error(.seconds(400), Self.failure)])
    expectOneCallEach()
    source.value?.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(400))])
    #expect(made.value?.ticks.values == [.seconds(200), .seconds(400)])
  }

  // RxSwift: testUsing_Dispose
  @Test func theResourceLastsUntilDisposal() {
    let observer = scheduler.start {
      stream { now in [.next(.seconds(100), now), .next(.seconds(1000), now + 1)] }
    }
    observer.assertEvents([.next(.seconds(300), 200)])
    expectOneCallEach()
    source.value?.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(1000))])
    #expect(made.value?.ticks.values == [.seconds(200), .seconds(1000)])
  }

  // RxSwift: testUsing_ThrowResourceSelector
  @Test func aFailingResourceFactoryFailsAtOnce() {
    let observer = scheduler.start {
      Observable<Int, TestError>.using { () throws(TestError) -> Resource in
        resourceCalls.increment()
        throw Self.failure
      } observableFactory: { _ in
        factoryCalls.increment()
        return .never()
      }
    }
    observer.assertEvents([.error(.seconds(200), Self.failure)])
    #expect(resourceCalls.value == 1)
    #expect(factoryCalls.value == 0)
  }

  // RxSwift: testUsing_ThrowResourceUsage. The resource is disposed of with the failure.
  @Test func aFailingStreamFactoryFailsAtOnceAndDisposesOfTheResource() {
    let observer = scheduler.start {
      Observable<Int, TestError>.using {
        resourceCalls.increment()
        let resource = Resource(scheduler: scheduler)
        made.value = resource
        return resource
      } observableFactory: { (_: Resource) throws(TestError) -> Observable<Int, TestError> in
        factoryCalls.increment()
        throw Self.failure
      }
    }
    observer.assertEvents([.error(.seconds(200), Self.failure)])
    #expect(resourceCalls.value == 1)
    #expect(factoryCalls.value == 1)
    #expect(made.value?.ticks.values == [.seconds(200), .seconds(200)])
  }

  // RxSwift: testUsingReleasesResourcesOnComplete, testUsingReleasesResourcesOnError. The
  // suite's resource check fails if anything is left alive.
  @Test func releasesEverything() {
    let events = Recorder<StreamEvent<Int, TestError>>()
    let resource = CompositeDisposable()
    Observable<Int, TestError>.using {
      resource
    } observableFactory: { _ in
      .just(1)
    }
    .subscribe { events.append($0) }
    Observable<Int, TestError>.using {
      resource
    } observableFactory: { _ in
      .error(Self.failure)
    }
    .subscribe { events.append($0) }
    #expect(events.values == [.next(1), .completed, .error(Self.failure)])
    #expect(resource.isDisposed)
  }
}
