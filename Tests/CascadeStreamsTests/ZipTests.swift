import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's zip cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+ZipTests.swift and
// Observable+ZipTests+arity.swift), re-expressed on Cascade's `TestScheduler`: the same hot
// inputs, times, expected events and subscription windows. Each test names the case it carries.
@Suite(.checksResources)
struct ZipTests {
  typealias Source = HotObservable<Int, TestError>

  static let failure = TestError("test")

  /// The two spellings RxSwift runs each arity case with: the result selector, and the tuple form
  /// followed by `map`.
  enum Form: CaseIterable, Sendable {
    case resultSelector
    case tupleThenMap
  }

  let scheduler = TestScheduler()

  func hot(_ events: [Recorded<StreamEvent<Int, TestError>>]) -> Source {
    scheduler.createHotObservable(events)
  }

  func sum(_ form: Form, _ a: Source, _ b: Source) -> Observable<Int, TestError> {
    switch form {
    case .resultSelector: a.zip(b) { $0 + $1 }
    case .tupleThenMap: a.zip(b).map { $0 + $1 }.asObservable()
    }
  }

  func sum(_ form: Form, _ a: Source, _ b: Source, _ c: Source) -> Observable<Int, TestError> {
    switch form {
    case .resultSelector: a.zip(b, c) { $0 + $1 + $2 }
    case .tupleThenMap: a.zip(b, c).map { $0 + $1 + $2 }.asObservable()
    }
  }

  func window(_ subscribed: Int, _ disposed: Int) -> [SubscriptionWindow] {
    [SubscriptionWindow(.seconds(subscribed), .seconds(disposed))]
  }

  // MARK: Two sources (Observable+ZipTests.swift)

  // RxSwift: testZip_NeverEmpty, testZip_EmptyNever. A source that completes empty is let go of,
  // but the result waits for the other one, as in RxSwift.
  @Test(arguments: [false, true])
  func neverAndEmpty(swapped: Bool) {
    let never = hot([.next(.seconds(150), 1)])
    let empty = hot([.next(.seconds(150), 1), .completed(.seconds(210))])
    let observer = scheduler.start {
      swapped ? empty.zip(never) { $0 + $1 } : never.zip(empty) { $0 + $1 }
    }
    observer.assertEvents([])
    never.assertSubscriptions(window(200, 1000))
    empty.assertSubscriptions(window(200, 210))
  }

  // RxSwift: testZip_EmptyNonEmpty, testZip_NonEmptyEmpty
  @Test(arguments: [false, true])
  func emptyAndNonEmpty(swapped: Bool) {
    let empty = hot([.next(.seconds(150), 1), .completed(.seconds(210))])
    let nonEmpty = hot([
      .next(.seconds(150), 1), .next(.seconds(215), 2), .completed(.seconds(220)),
    ])
    let observer = scheduler.start {
      swapped ? nonEmpty.zip(empty) { $0 + $1 } : empty.zip(nonEmpty) { $0 + $1 }
    }
    observer.assertEvents([.completed(.seconds(220))])
    empty.assertSubscriptions(window(200, 210))
    nonEmpty.assertSubscriptions(window(200, 220))
  }

  // RxSwift: testZip_NeverNonEmpty, testZip_NonEmptyNever
  @Test(arguments: [false, true])
  func neverAndNonEmpty(swapped: Bool) {
    let never = hot([.next(.seconds(150), 1)])
    let nonEmpty = hot([
      .next(.seconds(150), 1), .next(.seconds(215), 2), .completed(.seconds(220)),
    ])
    let observer = scheduler.start {
      swapped ? nonEmpty.zip(never) { $0 + $1 } : never.zip(nonEmpty) { $0 + $1 }
    }
    observer.assertEvents([])
    nonEmpty.assertSubscriptions(window(200, 220))
    never.assertSubscriptions(window(200, 1000))
  }

  // RxSwift: testZip_NonEmptyNonEmpty
  @Test func nonEmptyAndNonEmpty() {
    let first = hot([.next(.seconds(150), 1), .next(.seconds(215), 2), .completed(.seconds(230))])
    let second = hot([.next(.seconds(150), 1), .next(.seconds(220), 3), .completed(.seconds(240))])
    let observer = scheduler.start { first.zip(second) { $0 + $1 } }
    observer.assertEvents([.next(.seconds(220), 2 + 3), .completed(.seconds(240))])
    first.assertSubscriptions(window(200, 230))
    second.assertSubscriptions(window(200, 240))
  }

  // RxSwift: testZip_EmptyError, testZip_ErrorEmpty
  @Test(arguments: [false, true])
  func emptyAndError(swapped: Bool) {
    let empty = hot([.next(.seconds(150), 1), .completed(.seconds(230))])
    let failing = hot([.next(.seconds(150), 1), .error(.seconds(220), Self.failure)])
    let observer = scheduler.start {
      swapped ? failing.zip(empty) { $0 + $1 } : empty.zip(failing) { $0 + $1 }
    }
    observer.assertEvents([.error(.seconds(220), Self.failure)])
    empty.assertSubscriptions(window(200, 220))
    failing.assertSubscriptions(window(200, 220))
  }

  // RxSwift: testZip_NeverError, testZip_ErrorNever
  @Test(arguments: [false, true])
  func neverAndError(swapped: Bool) {
    let never = hot([.next(.seconds(150), 1)])
    let failing = hot([.next(.seconds(150), 1), .error(.seconds(220), Self.failure)])
    let observer = scheduler.start {
      swapped ? failing.zip(never) { $0 + $1 } : never.zip(failing) { $0 + $1 }
    }
    observer.assertEvents([.error(.seconds(220), Self.failure)])
    never.assertSubscriptions(window(200, 220))
    failing.assertSubscriptions(window(200, 220))
  }

  // RxSwift: testZip_ErrorError. The first failure wins.
  @Test func errorAndError() {
    let late = hot([.next(.seconds(150), 1), .error(.seconds(230), TestError("1"))])
    let early = hot([.next(.seconds(150), 1), .error(.seconds(220), TestError("2"))])
    let observer = scheduler.start { early.zip(late) { $0 + $1 } }
    observer.assertEvents([.error(.seconds(220), TestError("2"))])
    late.assertSubscriptions(window(200, 220))
    early.assertSubscriptions(window(200, 220))
  }

  // RxSwift: testZip_SomeError, testZip_ErrorSome
  @Test(arguments: [false, true])
  func someAndError(swapped: Bool) {
    let some = hot([.next(.seconds(150), 1), .next(.seconds(215), 2), .completed(.seconds(230))])
    let failing = hot([.next(.seconds(150), 1), .error(.seconds(220), TestError("1"))])
    let observer = scheduler.start {
      swapped ? failing.zip(some) { $0 + $1 } : some.zip(failing) { $0 + $1 }
    }
    observer.assertEvents([.error(.seconds(220), TestError("1"))])
    some.assertSubscriptions(window(200, 220))
    failing.assertSubscriptions(window(200, 220))
  }

  // RxSwift: testZip_LeftCompletesFirst, testZip_RightCompletesFirst
  @Test(arguments: [false, true])
  func oneCompletesFirst(swapped: Bool) {
    let first = hot([.next(.seconds(150), 1), .next(.seconds(210), 2), .completed(.seconds(220))])
    let second = hot([.next(.seconds(150), 1), .next(.seconds(215), 4), .completed(.seconds(225))])
    let observer = scheduler.start {
      swapped ? second.zip(first) { $0 + $1 } : first.zip(second) { $0 + $1 }
    }
    observer.assertEvents([.next(.seconds(215), 2 + 4), .completed(.seconds(225))])
    first.assertSubscriptions(window(200, 220))
    second.assertSubscriptions(window(200, 225))
  }

  // RxSwift: testZip_LeftTriggersSelectorError, testZip_RightTriggersSelectorError. The selector
  // throws the stream's typed `Failure`.
  @Test(arguments: [false, true])
  func selectorFailure(swapped: Bool) {
    let first = hot([.next(.seconds(150), 1), .next(.seconds(220), 2), .completed(.seconds(220))])
    let second = hot([.next(.seconds(150), 1), .next(.seconds(210), 4)])
    let observer = scheduler.start {
      let failing: @Sendable (Int, Int) throws(TestError) -> Int = { _, _ throws(TestError) in
        throw Self.failure
      }
      return swapped ? second.zip(first, failing) : first.zip(second, failing)
    }
    observer.assertEvents([.error(.seconds(220), Self.failure)])
    first.assertSubscriptions(window(200, 220))
    second.assertSubscriptions(window(200, 220))
  }

  // RxSwift: testZipReleasesResourcesOnComplete1/2, testZipReleasesResourcesOnError1/2, and the
  // array forms testZipArrayReleasesResources*. The suite's resource check fails if anything is
  // left alive.
  @Test func releasesEverythingOnCompletionAndFailure() {
    let events = Recorder<StreamEvent<Int, TestError>>()
    let one = Observable<Int, TestError>.just(1)
    let failing = Observable<Int, TestError>.error(Self.failure)
    one.zip(one, +).subscribe { events.append($0) }
    one.zip(failing, +).subscribe { events.append($0) }
    one.zip(one).map { $0 + $1 }.subscribe { events.append($0) }
    one.zip(failing).map { $0 + $1 }.subscribe { events.append($0) }
    Observable.zip([one, one]).map { $0.reduce(0, +) }.subscribe { events.append($0) }
    Observable.zip([failing, one]).map { $0.reduce(0, +) }.subscribe { events.append($0) }
    #expect(
      events.values == [
        .next(2), .completed, .error(Self.failure), .next(2), .completed, .error(Self.failure),
        .next(2), .completed, .error(Self.failure),
      ]
    )
  }

  // MARK: Arity 2 and 3 (Observable+ZipTests+arity.swift)

  // RxSwift: testZip_ImmediateSchedule2, testZip_ImmediateSchedule3
  @Test(arguments: Form.allCases)
  func synchronousSources(form: Form) {
    let received = Recorder<Int>()
    let one = Observable<Int, Never>.just(1)
    let two = Observable<Int, Never>.just(2)
    let three = Observable<Int, Never>.just(3)
    switch form {
    case .resultSelector:
      one.zip(two, +).subscribe(onNext: { received.append($0) })
      one.zip(two, three) { $0 + $1 + $2 }.subscribe(onNext: { received.append($0) })
    case .tupleThenMap:
      one.zip(two).map { $0 + $1 }.subscribe(onNext: { received.append($0) })
      one.zip(two, three).map { $0 + $1 + $2 }.subscribe(onNext: { received.append($0) })
    }
    #expect(received.values == [3, 6])
  }

  // RxSwift: testZip_Never2
  @Test(arguments: Form.allCases)
  func neverTwo(form: Form) {
    let a = hot([.next(.seconds(150), 1)])
    let b = hot([.next(.seconds(150), 1)])
    let observer = scheduler.start { sum(form, a, b) }
    observer.assertEvents([])
    a.assertSubscriptions(window(200, 1000))
    b.assertSubscriptions(window(200, 1000))
  }

  // RxSwift: testZip_Never3
  @Test(arguments: Form.allCases)
  func neverThree(form: Form) {
    let a = hot([.next(.seconds(150), 1)])
    let b = hot([.next(.seconds(150), 1)])
    let c = hot([.next(.seconds(150), 1)])
    let observer = scheduler.start { sum(form, a, b, c) }
    observer.assertEvents([])
    for source in [a, b, c] { source.assertSubscriptions(window(200, 1000)) }
  }

  // RxSwift: testZip_Empty2
  @Test(arguments: Form.allCases)
  func emptyTwo(form: Form) {
    let a = hot([.completed(.seconds(210))])
    let b = hot([.completed(.seconds(220))])
    let observer = scheduler.start { sum(form, a, b) }
    observer.assertEvents([.completed(.seconds(220))])
    a.assertSubscriptions(window(200, 210))
    b.assertSubscriptions(window(200, 220))
  }

  // RxSwift: testZip_Empty3
  @Test(arguments: Form.allCases)
  func emptyThree(form: Form) {
    let a = hot([.completed(.seconds(210))])
    let b = hot([.completed(.seconds(220))])
    let c = hot([.completed(.seconds(230))])
    let observer = scheduler.start { sum(form, a, b, c) }
    observer.assertEvents([.completed(.seconds(230))])
    a.assertSubscriptions(window(200, 210))
    b.assertSubscriptions(window(200, 220))
    c.assertSubscriptions(window(200, 230))
  }

  // RxSwift: testZip_SymmetricReturn2
  @Test(arguments: Form.allCases)
  func symmetricTwo(form: Form) {
    let a = hot([.next(.seconds(150), 1), .next(.seconds(210), 1), .completed(.seconds(400))])
    let b = hot([.next(.seconds(150), 1), .next(.seconds(220), 2), .completed(.seconds(400))])
    let observer = scheduler.start { sum(form, a, b) }
    observer.assertEvents([.next(.seconds(220), 3), .completed(.seconds(400))])
    a.assertSubscriptions(window(200, 400))
    b.assertSubscriptions(window(200, 400))
  }

  // RxSwift: testZip_SymmetricReturn3
  @Test(arguments: Form.allCases)
  func symmetricThree(form: Form) {
    let a = hot([.next(.seconds(150), 1), .next(.seconds(210), 1), .completed(.seconds(400))])
    let b = hot([.next(.seconds(150), 1), .next(.seconds(220), 2), .completed(.seconds(400))])
    let c = hot([.next(.seconds(150), 1), .next(.seconds(230), 3), .completed(.seconds(400))])
    let observer = scheduler.start { sum(form, a, b, c) }
    observer.assertEvents([.next(.seconds(230), 6), .completed(.seconds(400))])
    for source in [a, b, c] { source.assertSubscriptions(window(200, 400)) }
  }

  // RxSwift: testZip_AllCompleted2
  @Test(arguments: Form.allCases)
  func allCompletedTwo(form: Form) {
    let a = hot([.next(.seconds(150), 1), .next(.seconds(210), 5), .completed(.seconds(220))])
    let b = hot([
      .next(.seconds(150), 1), .next(.seconds(210), 5), .next(.seconds(220), 6),
      .completed(.seconds(230)),
    ])
    let observer = scheduler.start { sum(form, a, b) }
    observer.assertEvents([.next(.seconds(210), 10), .completed(.seconds(230))])
    a.assertSubscriptions(window(200, 220))
    b.assertSubscriptions(window(200, 230))
  }

  // RxSwift: testZip_AllCompleted3
  @Test(arguments: Form.allCases)
  func allCompletedThree(form: Form) {
    let a = hot([.next(.seconds(150), 1), .next(.seconds(210), 5), .completed(.seconds(220))])
    let b = hot([
      .next(.seconds(150), 1), .next(.seconds(210), 5), .next(.seconds(220), 6),
      .completed(.seconds(230)),
    ])
    let c = hot([
      .next(.seconds(150), 1), .next(.seconds(210), 5), .next(.seconds(220), 6),
      .next(.seconds(230), 7), .completed(.seconds(240)),
    ])
    let observer = scheduler.start { sum(form, a, b, c) }
    observer.assertEvents([.next(.seconds(210), 15), .completed(.seconds(240))])
    a.assertSubscriptions(window(200, 220))
    b.assertSubscriptions(window(200, 230))
    c.assertSubscriptions(window(200, 240))
  }

  // MARK: Collections (Observable+ZipTests.swift, NAry)

  // RxSwift: testZip_NAry_emptyArray
  @Test func emptyCollectionCompletesAtOnce() {
    let observer = scheduler.start { Observable<Int, TestError>.zip([]) }
    observer.assertEvents([.completed(.seconds(200))])
  }

  // RxSwift: testZip_NAry_symmetric
  @Test func collectionSymmetric() {
    let a = hot([
      .next(.seconds(150), 1), .next(.seconds(210), 1), .next(.seconds(250), 4),
      .completed(.seconds(420)),
    ])
    let b = hot([
      .next(.seconds(150), 1), .next(.seconds(220), 2), .next(.seconds(240), 5),
      .completed(.seconds(410)),
    ])
    let c = hot([
      .next(.seconds(150), 1), .next(.seconds(230), 3), .next(.seconds(260), 6),
      .completed(.seconds(400)),
    ])
    let observer = scheduler.start {
      Observable.zip([a.asObservable(), b.asObservable(), c.asObservable()])
    }
    observer.assertEvents([
      .next(.seconds(230), [1, 2, 3]),
      .next(.seconds(260), [4, 5, 6]),
      .completed(.seconds(420)),
    ])
    a.assertSubscriptions(window(200, 420))
    b.assertSubscriptions(window(200, 410))
    c.assertSubscriptions(window(200, 400))
  }

  // RxSwift: testZip_NAry_asymmetric. Deliberate difference: RxSwift's collection `zip`
  // completes at 310, when `b` emits 9 while `a` and `c` have completed; its `zip` of two or
  // three sources would not, and Cascade applies that one rule to every form, so the result
  // completes when the last source does (410). The values are the same.
  @Test func collectionAsymmetric() {
    let a = hot([
      .next(.seconds(150), 1), .next(.seconds(210), 1), .next(.seconds(250), 4),
      .completed(.seconds(270)),
    ])
    let b = hot([
      .next(.seconds(150), 1), .next(.seconds(220), 2), .next(.seconds(240), 5),
      .next(.seconds(290), 7), .next(.seconds(310), 9), .completed(.seconds(410)),
    ])
    let c = hot([
      .next(.seconds(150), 1), .next(.seconds(230), 3), .next(.seconds(260), 6),
      .next(.seconds(280), 8), .completed(.seconds(300)),
    ])
    let observer = scheduler.start {
      Observable.zip([a.asObservable(), b.asObservable(), c.asObservable()])
    }
    observer.assertEvents([
      .next(.seconds(230), [1, 2, 3]),
      .next(.seconds(260), [4, 5, 6]),
      .completed(.seconds(410)),  // RxSwift: 310
    ])
    a.assertSubscriptions(window(200, 270))
    b.assertSubscriptions(window(200, 410))  // RxSwift: 200 ..< 310
    c.assertSubscriptions(window(200, 300))
  }

  // RxSwift: testZip_NAry_error
  @Test func collectionFailure() {
    let a = hot([
      .next(.seconds(150), 1), .next(.seconds(210), 1), .error(.seconds(250), Self.failure),
    ])
    let b = hot([
      .next(.seconds(150), 1), .next(.seconds(220), 2), .next(.seconds(240), 5),
      .completed(.seconds(410)),
    ])
    let c = hot([
      .next(.seconds(150), 1), .next(.seconds(230), 3), .next(.seconds(260), 6),
      .completed(.seconds(400)),
    ])
    let observer = scheduler.start {
      Observable.zip([a.asObservable(), b.asObservable(), c.asObservable()])
    }
    observer.assertEvents([
      .next(.seconds(230), [1, 2, 3]),
      .error(.seconds(250), Self.failure),
    ])
    for source in [a, b, c] { source.assertSubscriptions(window(200, 250)) }
  }

  // RxSwift: testZip_NAry_atLeastOneErrors4
  @Test func collectionOfFourWithOneFailure() {
    let a = hot([.next(.seconds(150), 1), .next(.seconds(210), 1), .completed(.seconds(400))])
    let b = hot([.next(.seconds(150), 1), .next(.seconds(220), 2), .completed(.seconds(400))])
    let c = hot([.next(.seconds(150), 1), .error(.seconds(230), Self.failure)])
    let d = hot([.next(.seconds(150), 1), .next(.seconds(240), 4), .completed(.seconds(400))])
    let observer = scheduler.start {
      Observable.zip([a, b, c, d].map { $0.asObservable() }).map { _ in 42 }
    }
    observer.assertEvents([.error(.seconds(230), Self.failure)])
    for source in [a, b, c, d] { source.assertSubscriptions(window(200, 230)) }
  }

  // MARK: Cascade's own cases

  @Test func valuesWaitForTheirPartnersInOrder() {
    let letters = PublishSubject<String, Never>()
    let numbers = PublishSubject<Int, Never>()
    let received = Recorder<String>()
    let subscription = letters.zip(numbers) { "\($0)\($1)" }
      .subscribe(onNext: { received.append($0) })
    letters.onNext("a")
    letters.onNext("b")
    letters.onNext("c")
    numbers.onNext(1)
    #expect(received.values == ["a1"])
    numbers.onNext(2)
    numbers.onNext(3)
    numbers.onNext(4)
    letters.onNext("d")
    #expect(received.values == ["a1", "b2", "c3", "d4"])
    subscription.dispose()
  }

  @Test func disposingDisposesEverySource() {
    let a = PublishSubject<Int, Never>()
    let b = PublishSubject<Int, Never>()
    let subscription = a.zip(b, +).subscribe { _ in }
    #expect(a.hasObservers && b.hasObservers)
    subscription.dispose()
    #expect(!a.hasObservers && !b.hasObservers)
  }

  @Test func aValueSentFromInsideTheCallbackIsDeliveredAfterIt() {
    let a = PublishSubject<Int, Never>()
    let b = PublishSubject<Int, Never>()
    let log = Recorder<String>()
    let subscription = a.zip(b, +).subscribe(onNext: { value in
      log.append("enter \(value)")
      if value == 2 {
        a.onNext(10)
        b.onNext(10)
      }
      log.append("exit \(value)")
    })
    a.onNext(1)
    b.onNext(1)
    #expect(log.values == ["enter 2", "exit 2", "enter 20", "exit 20"])
    subscription.dispose()
  }

  // RxSwift's static spellings: `Observable.zip(a, b)`, `Observable.zip(a, b, c)` and
  // `Observable.zip(a, b) { … }`, called on `Observable` without naming an element type.
  @Test func rxSwiftsStaticSpellingsPairTripleAndCombine() {
    let letters = Observable<String, TestError>.of("a", "b", "c")
    let numbers = Observable<Int, TestError>.of(1, 2)
    let flags = Observable<Bool, TestError>.of(true, false)
    let pairs = Recorder<String>()
    let triples = Recorder<String>()
    let combined = Recorder<String>()
    Observable.zip(letters, numbers)
      .subscribe(onNext: { pairs.append("\($0)\($1)") }, onCompleted: { pairs.append("end") })
    Observable.zip(letters, numbers, flags)
      .subscribe(onNext: { triples.append("\($0)\($1)\($2)") })
    Observable.zip(letters, numbers) { "\($0)-\($1)" }
      .subscribe(onNext: { combined.append($0) })
    #expect(pairs.values == ["a1", "b2", "end"])
    #expect(triples.values == ["a1true", "b2false"])
    #expect(combined.values == ["a-1", "b-2"])
  }
}
