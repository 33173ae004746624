import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// `ObserverType.onNext(_:)`: a value goes down a chain as it is, not made an event at each step;
/// an observer that implements only `on(_:)` still receives every value.
@Suite(.checksResources)
struct OnNextTests {
  /// Records which of its two entries each value came through.
  final class Entries: ObserverType {
    typealias Element = Int
    typealias Failure = Never
    let seen: Recorder<String>

    init(seen: Recorder<String> = Recorder()) {
      self.seen = seen
    }

    func on(_ event: StreamEvent<Int, Never>) {
      switch event {
      case .next(let value): seen.append("on next \(value)")
      case .completed: seen.append("on completed")
      }
    }

    func onNext(_ element: Int) { seen.append("onNext \(element)") }
  }

  /// The same, as a value type (erased in a box).
  struct ValueEntries: ObserverType {
    typealias Element = Int
    typealias Failure = Never
    let seen: Recorder<String>

    func on(_ event: StreamEvent<Int, Never>) {
      if case .next(let value) = event { seen.append("on next \(value)") }
    }

    func onNext(_ element: Int) { seen.append("onNext \(element)") }
  }

  @Test func valuesGoDownEveryElementWiseOperatorAsValues() {
    let subject = PublishSubject<Int, Never>()
    let observer = Entries()
    let done = Recorder<Int>()
    let subscription =
      subject
      .map { $0 * 10 }
      .filter { $0 != 30 }
      .compactMap { $0 == 50 ? nil : $0 }
      .distinctUntilChanged()
      .scan(0, +)
      .do(onNext: { done.append($0) })
      .subscribe(observer)

    for value in [1, 1, 2, 3, 4, 5] { subject.on(.next(value)) }
    subject.on(.completed)

    #expect(
      observer.seen.values == ["onNext 10", "onNext 30", "onNext 70", "on completed"]
    )
    #expect(done.values == [10, 30, 70])
    subscription.dispose()
  }

  @Test func anObserverWithOnlyOnReceivesEveryValue() {
    let subject = PublishSubject<Int, Never>()
    let received = Recorder<StreamEvent<Int, Never>>()
    // `AnyObserver` of a closure of events: its `onNext` makes the event.
    let subscription = subject.map { $0 + 1 }.filter { $0 > 1 }
      .subscribe(AnyObserver { received.append($0) })

    subject.onNext(0)
    subject.onNext(1)
    subject.onNext(2)
    subject.onCompleted()

    #expect(received.values == [.next(2), .next(3), .completed])
    subscription.dispose()
  }

  @Test(arguments: [true, false])
  func anErasedObserverKeepsBothEntries(_ isClass: Bool) {
    let seen = Recorder<String>()
    let erased =
      isClass ? Entries(seen: seen).asObserver() : ValueEntries(seen: seen).asObserver()

    erased.onNext(1)
    erased.on(.next(2))
    // Erased again, it is the same observer.
    erased.asObserver().onNext(3)

    #expect(seen.values == ["onNext 1", "on next 2", "onNext 3"])
  }

  @Test func aDisposedSubscriptionTakesNoValueThroughOnNext() {
    let subject = PublishSubject<Int, Never>()
    let received = Recorder<Int>()
    let subscription = subject.map { $0 }.subscribe(onNext: { received.append($0) })

    subject.onNext(1)
    subscription.dispose()
    subject.onNext(2)

    #expect(received.values == [1])
  }
}
