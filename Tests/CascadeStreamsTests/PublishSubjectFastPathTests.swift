import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// What a subject's lock-free delivery of values must not change.
///
/// A subject delivers a value without its lock when its observers are settled (issue 35, W6b):
/// the emitter keeps a snapshot of the observers, which subscribing and disposing invalidate.
@Suite(.checksResources)
struct PublishSubjectFastPathTests {
  /// An object whose release a test watches through a weak reference.
  final class Probe: Sendable {}

  // Disposing while no one sends releases the observer at once, although the snapshot of the
  // last value still held its registration: the disposal drops the snapshot.
  @Test func disposingWhileIdleReleasesTheObserver() {
    let subject = PublishSubject<Int, Never>()
    let received = Recorder<Int>()
    weak var released: Probe?
    do {
      let probe = Probe()
      released = probe
      let subscription = subject.map { $0 * 2 }.subscribe(onNext: { value in
        withExtendedLifetime(probe) { received.append(value) }
      })
      subject.onNext(1)
      subject.onNext(2)
      #expect(released != nil)
      subscription.dispose()
    }
    #expect(released == nil)
    subject.onNext(3)
    #expect(received.values == [2, 4])
    #expect(!subject.hasObservers)
  }

  // An observer that disposes itself during a callout gets nothing more, and is released when
  // the emission ends, with no later send (the emitter drops the snapshot that held it). A
  // value sent from inside the callout would renew the snapshot and hide a missing drop:
  // SubjectTests.disposingInsideCallbackStopsDeliveryAtOnce covers that case.
  @Test func disposingDuringDeliveryStopsAndReleasesTheObserver() {
    let subject = PublishSubject<Int, Never>()
    let received = Recorder<Int>()
    let others = Recorder<Int>()
    let holder = SerialDisposable()
    weak var released: Probe?
    do {
      let probe = Probe()
      released = probe
      holder.replace(
        with: subject.subscribe(onNext: { value in
          withExtendedLifetime(probe) { received.append(value) }
          if value == 2 { holder.dispose() }
        })
      )
    }
    let other = subject.subscribe(onNext: { others.append($0) })
    subject.onNext(1)
    subject.onNext(2)
    #expect(released == nil)
    subject.onNext(3)
    #expect(received.values == [1, 2])
    #expect(others.values == [1, 2, 3])
    other.dispose()
  }

  // A subscriber added from inside a callout receives the values sent after it subscribed,
  // those sent from inside the callout included, and the observers already there keep theirs.
  @Test func aSubscriberAddedDuringDeliveryReceivesLaterValues() {
    let subject = PublishSubject<Int, Never>()
    let outer = Recorder<Int>()
    let inner = Recorder<Int>()
    let bag = DisposeBag()
    subject.subscribe(onNext: { value in
      outer.append(value)
      if value == 1 {
        subject.subscribe(onNext: { inner.append($0) }).disposed(by: bag)
        subject.onNext(2)
      }
    }).disposed(by: bag)
    subject.onNext(0)
    subject.onNext(1)
    subject.onNext(3)
    #expect(outer.values == [0, 1, 2, 3])
    #expect(inner.values == [2, 3])
    bag.dispose()
  }

  // Values delivered through the snapshot stop at the terminal event: nothing after it, to
  // anyone, and a late subscriber receives the terminal event alone.
  @Test func nothingIsDeliveredAfterTheTerminalEvent() {
    let subject = PublishSubject<Int, TestError>()
    let early = Recorder<StreamEvent<Int, TestError>>()
    let subscription = subject.subscribe { early.append($0) }
    subject.onNext(1)
    subject.onNext(2)
    subject.onCompleted()
    subject.onNext(3)
    subject.onError(TestError("late"))
    let late = Recorder<StreamEvent<Int, TestError>>()
    _ = subject.subscribe { late.append($0) }
    #expect(early.values == [.next(1), .next(2), .completed])
    #expect(late.values == [.completed])
    #expect(!subject.hasObservers)
    subscription.dispose()
  }

  // Observers come and go between values: each receives exactly the values sent while it was
  // subscribed, in order, as the snapshot is renewed.
  @Test func observersComingAndGoingReceiveTheirValues() {
    let subject = PublishSubject<Int, Never>()
    let first = Recorder<Int>()
    let second = Recorder<Int>()
    let third = Recorder<Int>()
    let a = subject.subscribe(onNext: { first.append($0) })
    subject.onNext(1)
    let b = subject.subscribe(onNext: { second.append($0) })
    subject.onNext(2)
    subject.onNext(3)
    a.dispose()
    subject.onNext(4)
    let c = subject.filter { $0.isMultiple(of: 2) }.subscribe(onNext: { third.append($0) })
    for value in 5...8 { subject.onNext(value) }
    b.dispose()
    subject.onNext(10)
    c.dispose()
    subject.onNext(11)
    #expect(first.values == [1, 2, 3])
    #expect(second.values == [2, 3, 4, 5, 6, 7, 8])
    #expect(third.values == [6, 8, 10])
  }
}
