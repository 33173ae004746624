import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Foundation
import Testing

// RxSwift's groupBy cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+GroupByTests.swift),
// re-expressed on Cascade's `TestScheduler`: the same hot inputs, times, expected events and
// subscription windows, and the same counts of key selector calls and of groups. The key
// selector throws the stream's typed `Failure` (`TestError` here) where RxSwift's throws any
// error.
@Suite(.checksResources)
struct GroupByTests {
  typealias Group = GroupedObservable<String, String, TestError>

  static let failure = TestError("test")
  let scheduler = TestScheduler()

  /// The words of most cases: four keys (foo, bar, baz, qux) in differing case and spacing.
  static let words: [Recorded<StreamEvent<String, TestError>>] = [
    .next(.seconds(90), "abc"), .next(.seconds(110), "zoo"), .next(.seconds(130), "oof"),
    .next(.seconds(220), "  foo"), .next(.seconds(240), " FoO "), .next(.seconds(270), "baR  "),
    .next(.seconds(310), "foO "), .next(.seconds(350), " Baz   "), .next(.seconds(360), "  qux "),
    .next(.seconds(390), "   bar"), .next(.seconds(420), " BAR  "), .next(.seconds(470), "FOO "),
    .next(.seconds(480), "baz  "), .next(.seconds(510), " bAZ "),
    .next(.seconds(530), "    fOo    "),
  ]

  /// What follows the words' end in RxSwift's inputs, never delivered.
  static let afterTheEnd: [Recorded<StreamEvent<String, TestError>>] = [
    .next(.seconds(580), "error"), .completed(.seconds(600)), .error(.seconds(650), failure),
  ]

  static let completing = words + [.completed(.seconds(570))] + afterTheEnd
  static let failing = words + [.error(.seconds(570), failure)] + afterTheEnd

  /// A word's key: lowercased, without surrounding spaces; the word "error" throws, as does the
  /// call numbered `throwingAt`.
  static func key(
    _ word: String,
    calls: Counter,
    throwingAt: Int? = nil
  ) throws(TestError) -> String {
    let call = calls.increment()
    if word == "error" || call == throwingAt { throw failure }
    return word.lowercased().trimmingCharacters(in: .whitespaces)
  }

  /// Runs `body` at virtual time `time`.
  func at(_ time: Int, _ body: @escaping @Sendable () -> Void) {
    scheduler.schedule(after: scheduler.now.duration(to: SchedulerInstant(offset: .seconds(time))))
    {
      body()
    }
  }

  /// What a case subscribes: the keys the result emitted, each group's recorder and subscription.
  final class Groups: Sendable {
    let keys = Recorder<String>()
    let outer = LockedBox<(any Disposable)?>(nil)
    let results = LockedBox<[String: TestableObserver<String, TestError>]>([:])
    let subscriptions = LockedBox<[String: any Disposable]>([:])

    subscript(key: String) -> [Recorded<StreamEvent<String, TestError>>] {
      results.value[key]?.events ?? []
    }

    func disposeAll() {
      outer.value?.dispose()
      for subscription in subscriptions.value.values { subscription.dispose() }
    }

    func dispose(_ key: String) {
      subscriptions.value[key]?.dispose()
    }
  }

  /// Subscribes to `groups` at 200 (RxSwift's `Defaults.subscribed`); each group is subscribed
  /// to `delay` after it is emitted, into a recorder of its own; everything is disposed at 1000.
  func subscribeToGroups(
    _ groups: @escaping @Sendable () -> Observable<Group, TestError>,
    delay: Duration = .zero
  ) -> Groups {
    let recorded = Groups()
    let scheduler = scheduler
    at(200) {
      recorded.outer.value = groups().subscribe(onNext: { group in
        recorded.keys.append(group.key)
        let result = scheduler.createObserver(String.self, failure: TestError.self)
        recorded.results.value[group.key] = result
        if delay == .zero {
          recorded.subscriptions.value[group.key] = group.subscribe(result)
        } else {
          let subscription = SerialDisposable()
          recorded.subscriptions.value[group.key] = subscription
          subscription.replace(
            with: scheduler.schedule(after: delay) {
              subscription.replace(with: group.subscribe(result))
            }
          )
        }
      })
    }
    at(1000) { recorded.disposeAll() }
    return recorded
  }

  // RxSwift: testGroupBy_TwoGroup
  @Test func twoGroups() {
    let source = scheduler.createHotObservable(
      [
        .next(.seconds(205), 1), .next(.seconds(210), 2), .next(.seconds(240), 3),
        .next(.seconds(280), 4), .next(.seconds(320), 5), .next(.seconds(350), 6),
        .next(.seconds(370), 7), .next(.seconds(420), 8), .next(.seconds(470), 9),
        .completed(.seconds(600)),
      ] as [Recorded<StreamEvent<Int, TestError>>]
    )
    let observer = scheduler.start {
      let index = Counter()
      return source.groupBy { $0 % 2 }
        .flatMap { group in
          let number = index.increment() - 1
          return group.map { "\(number) \($0)" }
        }
    }
    observer.assertEvents([
      .next(.seconds(205), "0 1"), .next(.seconds(210), "1 2"), .next(.seconds(240), "0 3"),
      .next(.seconds(280), "1 4"), .next(.seconds(320), "0 5"), .next(.seconds(350), "1 6"),
      .next(.seconds(370), "0 7"), .next(.seconds(420), "1 8"), .next(.seconds(470), "0 9"),
      .completed(.seconds(600)),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(600))])
  }

  // RxSwift: testGroupBy_OuterComplete
  @Test func theResultCompletesWithTheSource() {
    let source = scheduler.createHotObservable(Array(Self.completing.dropFirst(3)))
    let calls = Counter()
    let observer = scheduler.start {
      source.groupBy { word throws(TestError) in try Self.key(word, calls: calls) }.map(\.key)
    }
    observer.assertEvents([
      .next(.seconds(220), "foo"), .next(.seconds(270), "bar"), .next(.seconds(350), "baz"),
      .next(.seconds(360), "qux"), .completed(.seconds(570)),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(570))])
    #expect(calls.value == 12)
  }

  // RxSwift: testGroupBy_OuterError
  @Test func theResultFailsWithTheSource() {
    let source = scheduler.createHotObservable(Self.failing)
    let calls = Counter()
    let observer = scheduler.start {
      source.groupBy { word throws(TestError) in try Self.key(word, calls: calls) }.map(\.key)
    }
    observer.assertEvents([
      .next(.seconds(220), "foo"), .next(.seconds(270), "bar"), .next(.seconds(350), "baz"),
      .next(.seconds(360), "qux"), .error(.seconds(570), Self.failure),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(570))])
    #expect(calls.value == 12)
  }

  // RxSwift: testGroupBy_OuterDispose
  @Test func disposingTheResultWithNoGroupSubscribedLetsGoOfTheSource() {
    let source = scheduler.createHotObservable(Self.completing)
    let calls = Counter()
    let observer = scheduler.start(disposed: .seconds(355)) {
      source.groupBy { word throws(TestError) in try Self.key(word, calls: calls) }.map(\.key)
    }
    observer.assertEvents([
      .next(.seconds(220), "foo"), .next(.seconds(270), "bar"), .next(.seconds(350), "baz"),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(355))])
    #expect(calls.value == 5)
  }

  // RxSwift: testGroupBy_OuterKeySelectorThrows
  // Deliberate difference: the key selector throws the stream's typed `Failure` (`TestError`),
  // where RxSwift's throws any `Error`; the events and times are RxSwift's.
  @Test func aThrowingKeySelectorFailsTheResult() {
    let source = scheduler.createHotObservable(Self.completing)
    let calls = Counter()
    let observer = scheduler.start {
      source.groupBy { word throws(TestError) in
        try Self.key(word, calls: calls, throwingAt: 10)
      }
      .map(\.key)
    }
    observer.assertEvents([
      .next(.seconds(220), "foo"), .next(.seconds(270), "bar"), .next(.seconds(350), "baz"),
      .next(.seconds(360), "qux"), .error(.seconds(480), Self.failure),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(480))])
    #expect(calls.value == 10)
  }

  // RxSwift: testGroupBy_InnerComplete
  @Test func groupsSubscribedLateCompleteWithTheSource() {
    let source = scheduler.createHotObservable(Self.completing)
    let calls = Counter()
    let groups = subscribeToGroups(
      { source.groupBy { word throws(TestError) in try Self.key(word, calls: calls) } },
      delay: .seconds(100)
    )
    scheduler.run()
    #expect(groups.results.value.count == 4)
    #expect(
      groups["foo"] == [
        .next(.seconds(470), "FOO "), .next(.seconds(530), "    fOo    "),
        .completed(.seconds(570)),
      ]
    )
    #expect(
      groups["bar"] == [
        .next(.seconds(390), "   bar"), .next(.seconds(420), " BAR  "), .completed(.seconds(570)),
      ]
    )
    #expect(
      groups["baz"] == [
        .next(.seconds(480), "baz  "), .next(.seconds(510), " bAZ "), .completed(.seconds(570)),
      ]
    )
    #expect(groups["qux"] == [.completed(.seconds(570))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(570))])
  }

  // RxSwift: testGroupBy_InnerCompleteAll
  @Test func groupsSubscribedAtOnceReceiveEveryValueOfTheirKey() {
    let source = scheduler.createHotObservable(Self.completing)
    let calls = Counter()
    let groups = subscribeToGroups {
      source.groupBy { word throws(TestError) in try Self.key(word, calls: calls) }
    }
    scheduler.run()
    #expect(groups.results.value.count == 4)
    #expect(
      groups["foo"] == [
        .next(.seconds(220), "  foo"), .next(.seconds(240), " FoO "), .next(.seconds(310), "foO "),
        .next(.seconds(470), "FOO "), .next(.seconds(530), "    fOo    "),
        .completed(.seconds(570)),
      ]
    )
    #expect(
      groups["bar"] == [
        .next(.seconds(270), "baR  "), .next(.seconds(390), "   bar"),
        .next(.seconds(420), " BAR  "), .completed(.seconds(570)),
      ]
    )
    #expect(
      groups["baz"] == [
        .next(.seconds(350), " Baz   "), .next(.seconds(480), "baz  "),
        .next(.seconds(510), " bAZ "), .completed(.seconds(570)),
      ]
    )
    #expect(groups["qux"] == [.next(.seconds(360), "  qux "), .completed(.seconds(570))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(570))])
  }

  // RxSwift: testGroupBy_InnerError
  @Test func groupsFailWithTheSource() {
    let source = scheduler.createHotObservable(Self.failing)
    let calls = Counter()
    let groups = subscribeToGroups(
      { source.groupBy { word throws(TestError) in try Self.key(word, calls: calls) } },
      delay: .seconds(100)
    )
    scheduler.run()
    #expect(groups.results.value.count == 4)
    #expect(
      groups["foo"] == [
        .next(.seconds(470), "FOO "), .next(.seconds(530), "    fOo    "),
        .error(.seconds(570), Self.failure),
      ]
    )
    #expect(
      groups["bar"] == [
        .next(.seconds(390), "   bar"), .next(.seconds(420), " BAR  "),
        .error(.seconds(570), Self.failure),
      ]
    )
    #expect(
      groups["baz"] == [
        .next(.seconds(480), "baz  "), .next(.seconds(510), " bAZ "),
        .error(.seconds(570), Self.failure),
      ]
    )
    #expect(groups["qux"] == [.error(.seconds(570), Self.failure)])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(570))])
  }

  // RxSwift: testGroupBy_InnerDispose
  @Test func disposingTheResultAndEveryGroupLetsGoOfTheSource() {
    let source = scheduler.createHotObservable(Self.completing)
    let calls = Counter()
    let groups = subscribeToGroups {
      source.groupBy { word throws(TestError) in try Self.key(word, calls: calls) }
    }
    at(400) { groups.disposeAll() }
    scheduler.run()
    #expect(groups.results.value.count == 4)
    #expect(
      groups["foo"] == [
        .next(.seconds(220), "  foo"), .next(.seconds(240), " FoO "), .next(.seconds(310), "foO "),
      ]
    )
    #expect(groups["bar"] == [.next(.seconds(270), "baR  "), .next(.seconds(390), "   bar")])
    #expect(groups["baz"] == [.next(.seconds(350), " Baz   ")])
    #expect(groups["qux"] == [.next(.seconds(360), "  qux ")])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(400))])
  }

  // RxSwift: testGroupBy_InnerKeyThrow
  // Deliberate difference: the key selector throws the stream's typed `Failure` (`TestError`),
  // where RxSwift's throws any `Error`; the events and times are RxSwift's.
  @Test func aThrowingKeySelectorFailsEveryGroup() {
    let source = scheduler.createHotObservable(Self.completing)
    let calls = Counter()
    let groups = subscribeToGroups {
      source.groupBy { word throws(TestError) in try Self.key(word, calls: calls, throwingAt: 6) }
    }
    scheduler.run()
    #expect(groups.results.value.count == 3)
    #expect(
      groups["foo"] == [
        .next(.seconds(220), "  foo"), .next(.seconds(240), " FoO "), .next(.seconds(310), "foO "),
        .error(.seconds(360), Self.failure),
      ]
    )
    #expect(
      groups["bar"] == [.next(.seconds(270), "baR  "), .error(.seconds(360), Self.failure)]
    )
    #expect(
      groups["baz"] == [.next(.seconds(350), " Baz   "), .error(.seconds(360), Self.failure)]
    )
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(360))])
  }

  // RxSwift: testGroupBy_OuterIndependence
  @Test func groupsOutliveTheDisposedResult() {
    let source = scheduler.createHotObservable(Self.completing)
    let calls = Counter()
    let groups = subscribeToGroups {
      source.groupBy { word throws(TestError) in try Self.key(word, calls: calls) }
    }
    at(320) { groups.outer.value?.dispose() }
    scheduler.run()
    #expect(groups.keys.values == ["foo", "bar"])
    #expect(
      groups["foo"] == [
        .next(.seconds(220), "  foo"), .next(.seconds(240), " FoO "), .next(.seconds(310), "foO "),
        .next(.seconds(470), "FOO "), .next(.seconds(530), "    fOo    "),
        .completed(.seconds(570)),
      ]
    )
    #expect(
      groups["bar"] == [
        .next(.seconds(270), "baR  "), .next(.seconds(390), "   bar"),
        .next(.seconds(420), " BAR  "), .completed(.seconds(570)),
      ]
    )
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(570))])
  }

  // RxSwift: testGroupBy_InnerIndependence
  @Test func disposingOneGroupLeavesTheOthers() {
    let source = scheduler.createHotObservable(Self.completing)
    let calls = Counter()
    let groups = subscribeToGroups {
      source.groupBy { word throws(TestError) in try Self.key(word, calls: calls) }
    }
    at(320) { groups.dispose("foo") }
    scheduler.run()
    #expect(groups.keys.values == ["foo", "bar", "baz", "qux"])
    #expect(
      groups["foo"] == [
        .next(.seconds(220), "  foo"), .next(.seconds(240), " FoO "), .next(.seconds(310), "foO "),
      ]
    )
    #expect(
      groups["bar"] == [
        .next(.seconds(270), "baR  "), .next(.seconds(390), "   bar"),
        .next(.seconds(420), " BAR  "), .completed(.seconds(570)),
      ]
    )
    #expect(
      groups["baz"] == [
        .next(.seconds(350), " Baz   "), .next(.seconds(480), "baz  "),
        .next(.seconds(510), " bAZ "), .completed(.seconds(570)),
      ]
    )
    #expect(groups["qux"] == [.next(.seconds(360), "  qux "), .completed(.seconds(570))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(570))])
  }

  // RxSwift: testGroupBy_InnerMultipleIndependence
  @Test func disposingEveryGroupKeepsTheSourceForTheResult() {
    let source = scheduler.createHotObservable(Self.completing)
    let calls = Counter()
    let groups = subscribeToGroups {
      source.groupBy { word throws(TestError) in try Self.key(word, calls: calls) }
    }
    at(320) { groups.dispose("foo") }
    at(280) { groups.dispose("bar") }
    at(355) { groups.dispose("baz") }
    at(400) { groups.dispose("qux") }
    scheduler.run()
    #expect(groups.keys.values == ["foo", "bar", "baz", "qux"])
    #expect(
      groups["foo"] == [
        .next(.seconds(220), "  foo"), .next(.seconds(240), " FoO "), .next(.seconds(310), "foO "),
      ]
    )
    #expect(groups["bar"] == [.next(.seconds(270), "baR  ")])
    #expect(groups["baz"] == [.next(.seconds(350), " Baz   ")])
    #expect(groups["qux"] == [.next(.seconds(360), "  qux ")])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(570))])
  }

  /// The "foo" words alone, ending with `end` at 570.
  static func foos(
    ending end: Recorded<StreamEvent<String, TestError>>
  ) -> [Recorded<StreamEvent<String, TestError>>] {
    [
      .next(.seconds(220), "  foo"), .next(.seconds(240), " FoO "), .next(.seconds(310), "foO "),
      .next(.seconds(470), "FOO "), .next(.seconds(530), "    fOo    "), end,
    ]
  }

  /// Subscribes to the groups at 200, keeping the last group without subscribing to it; the
  /// result is disposed at `letGo`, and the group subscribed at 600 into the returned recorder.
  func escapedGroup(
    _ source: HotObservable<String, TestError>,
    letGo: Int
  ) -> TestableObserver<String, TestError> {
    let results = scheduler.createObserver(String.self, failure: TestError.self)
    let group = LockedBox<Group?>(nil)
    let outer = LockedBox<(any Disposable)?>(nil)
    let inner = LockedBox<(any Disposable)?>(nil)
    at(200) {
      outer.value = source.groupBy { $0.lowercased().trimmingCharacters(in: .whitespaces) }
        .subscribe(onNext: { group.value = $0 })
    }
    at(letGo) { outer.value?.dispose() }
    at(600) { inner.value = group.value?.subscribe(results) }
    at(1000) { inner.value?.dispose() }
    scheduler.run()
    return results
  }

  // RxSwift: testGroupBy_InnerEscapeComplete
  @Test func aGroupSubscribedAfterCompletionCompletes() {
    let source = scheduler.createHotObservable(Self.foos(ending: .completed(.seconds(570))))
    let results = escapedGroup(source, letGo: 1000)
    results.assertEvents([.completed(.seconds(600))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(570))])
  }

  // RxSwift: testGroupBy_InnerEscapeError
  @Test func aGroupSubscribedAfterAFailureFails() {
    let source = scheduler.createHotObservable(
      Self.foos(ending: .error(.seconds(570), Self.failure))
    )
    let results = escapedGroup(source, letGo: 1000)
    results.assertEvents([.error(.seconds(600), Self.failure)])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(570))])
  }

  // RxSwift: testGroupBy_InnerEscapeDispose
  @Test func aGroupSubscribedAfterTheSourceWasLetGoOfReceivesNothing() {
    let source = scheduler.createHotObservable(
      Self.foos(ending: .error(.seconds(570), Self.failure))
    )
    let results = escapedGroup(source, letGo: 400)
    results.assertEvents([])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(400))])
  }

  // RxSwift: testGroupByReleasesResourcesOnComplete, testGroupByReleasesResourcesOnError1,
  // testGroupByReleasesResourcesOnError2. The suite's resource check fails if anything is left
  // alive.
  @Test func releasesEverything() {
    let events = Recorder<String>()
    Observable<Int, TestError>.just(1).groupBy { $0 }
      .subscribe(
        onNext: { events.append("group \($0.key)") },
        onCompleted: { events.append("end") }
      )
    Observable<Int, TestError>.error(Self.failure).groupBy { $0 }
      .subscribe(onError: { _ in events.append("error") })
    Observable<Int, TestError>.error(Self.failure).groupBy { _ throws(TestError) -> Int in
      throw Self.failure
    }
    .subscribe(onError: { _ in events.append("error") })
    #expect(events.values == ["group 1", "end", "error", "error"])
  }
}
