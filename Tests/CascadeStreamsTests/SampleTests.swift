import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's sample cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+SampleTests.swift),
// re-expressed on Cascade's `TestScheduler`: the same hot inputs, times, expected events and
// subscription windows.
@Suite(.checksResources)
struct SampleTests {
  static let failure = TestError("test")
  let scheduler = TestScheduler()

  func hot(_ events: [Recorded<StreamEvent<Int, TestError>>]) -> HotObservable<Int, TestError> {
    scheduler.createHotObservable(events)
  }

  func ticks(
    _ events: [Recorded<StreamEvent<String, TestError>>]
  ) -> HotObservable<String, TestError> {
    scheduler.createHotObservable(events)
  }

  static let values: [Recorded<StreamEvent<Int, TestError>>] = [
    .next(.seconds(150), 1), .next(.seconds(220), 2), .next(.seconds(240), 3),
    .next(.seconds(290), 4), .next(.seconds(300), 5), .next(.seconds(310), 6),
  ]

  static let sampler: [Recorded<StreamEvent<String, TestError>>] = [
    .next(.seconds(150), ""), .next(.seconds(210), "bar"), .next(.seconds(250), "foo"),
    .next(.seconds(260), "qux"),
  ]

  // RxSwift: testSample_Sampler_DefaultValue
  @Test func aTickWithoutANewValueEmitsTheDefault() {
    let source = hot(Self.values + [.completed(.seconds(400))])
    let sampler = ticks(Self.sampler + [.next(.seconds(320), "baz"), .completed(.seconds(500))])
    let observer = scheduler.start { source.sample(sampler, defaultValue: 0) }
    observer.assertEvents([
      .next(.seconds(210), 0),
      .next(.seconds(250), 3),
      .next(.seconds(260), 0),
      .next(.seconds(320), 6),
      .next(.seconds(500), 0),
      .completed(.seconds(500)),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(400))])
    sampler.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(500))])
  }

  // RxSwift: testSample_Sampler_SamplerThrows
  @Test func aFailingSamplerFails() {
    let source = hot(Self.values + [.completed(.seconds(400))])
    let sampler = ticks(Self.sampler + [.error(.seconds(320), Self.failure)])
    let observer = scheduler.start { source.sample(sampler) }
    observer.assertEvents([.next(.seconds(250), 3), .error(.seconds(320), Self.failure)])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(320))])
    sampler.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(320))])
  }

  // RxSwift: testSample_Sampler_Simple1
  @Test func emitsTheLatestValueAtEachTick() {
    let source = hot(Self.values + [.completed(.seconds(400))])
    let sampler = ticks(Self.sampler + [.next(.seconds(320), "baz"), .completed(.seconds(500))])
    let observer = scheduler.start { source.sample(sampler) }
    observer.assertEvents([
      .next(.seconds(250), 3), .next(.seconds(320), 6), .completed(.seconds(500)),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(400))])
    sampler.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(500))])
  }

  // RxSwift: testSample_Sampler_Simple2. The sampler's completion samples the pending value.
  @Test func theSamplersCompletionEmitsThePendingValue() {
    let source = hot(Self.values + [.next(.seconds(360), 7), .completed(.seconds(400))])
    let sampler = ticks(Self.sampler + [.next(.seconds(320), "baz"), .completed(.seconds(500))])
    let observer = scheduler.start { source.sample(sampler) }
    observer.assertEvents([
      .next(.seconds(250), 3), .next(.seconds(320), 6), .next(.seconds(500), 7),
      .completed(.seconds(500)),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(400))])
    sampler.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(500))])
  }

  // RxSwift: testSample_Sampler_Simple3. After the source completes, the next tick emits the
  // pending value and completes.
  @Test func completesAtTheTickAfterTheSourceCompletes() {
    let source = hot(Array(Self.values.prefix(4)) + [.completed(.seconds(300))])
    let sampler = ticks(Self.sampler + [.next(.seconds(320), "baz"), .completed(.seconds(500))])
    let observer = scheduler.start { source.sample(sampler) }
    observer.assertEvents([
      .next(.seconds(250), 3), .next(.seconds(320), 4), .completed(.seconds(320)),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(300))])
    sampler.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(320))])
  }

  // RxSwift: testSample_Sampler_SourceThrows
  @Test func aFailingSourceFails() {
    let source = hot(Self.values + [.error(.seconds(320), Self.failure)])
    let sampler = ticks(Self.sampler + [.next(.seconds(300), "baz"), .completed(.seconds(400))])
    let observer = scheduler.start { source.sample(sampler) }
    observer.assertEvents([
      .next(.seconds(250), 3), .next(.seconds(300), 5), .error(.seconds(320), Self.failure),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(320))])
    sampler.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(320))])
  }

  // RxSwift: testSampleReleasesResourcesOnComplete, testSamepleReleasesResourcesOnError (which
  // exercise `throttle`, a copy-paste slip in RxSwift; here they exercise `sample`). The suite's
  // resource check fails if anything is left alive.
  @Test func releasesEverything() {
    let events = Recorder<StreamEvent<Int, TestError>>()
    let tick = Observable<Void, TestError>.just(())
    Observable<Int, TestError>.just(1).sample(tick).subscribe { events.append($0) }
    Observable<Int, TestError>.error(Self.failure).sample(tick).subscribe { events.append($0) }
    #expect(events.values == [.next(1), .completed, .error(Self.failure)])
  }

  // Deliberate difference: RxSwift's result stays subscribed to the source, and never
  // completes, once the sampler has completed; here the sampler's completion ends it.
  @Test func theSamplersCompletionCompletesTheResult() {
    let source = hot(Self.values + [.completed(.seconds(400))])
    let sampler = ticks([.next(.seconds(230), "tick"), .completed(.seconds(245))])
    let observer = scheduler.start { source.sample(sampler) }
    observer.assertEvents([
      .next(.seconds(230), 2), .next(.seconds(245), 3), .completed(.seconds(245)),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(245))])
    sampler.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(245))])
  }
}
