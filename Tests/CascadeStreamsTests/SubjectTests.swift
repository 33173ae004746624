import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct SubjectTests {
  // A subject released while subscribed ends its registrations: disposing the subscription
  // afterwards (the subject gone) leaves nothing live. Before, the registration's resource
  // stayed counted for ever (found through a reactor whose runtime outlived a subject it had
  // subscribed to).
  @Test func releasingASubscribedSubjectEndsItsRegistrations() throws {
    let account = try #require(ResourceAccount.current)
    let before = account.live
    var subject: BehaviorSubject<Int, Never>? = BehaviorSubject(1)
    let received = Recorder<Int>()
    let subscription = subject!.map { $0 * 2 }.subscribe(onNext: { received.append($0) })
    #expect(account.live > before)
    subject = nil
    subscription.dispose()
    #expect(account.live == before)
    #expect(received.values == [2])
  }

  @Test func publishSubjectDeliversOnlyLaterValues() {
    let subject = PublishSubject<Int, Never>()
    subject.onNext(0)
    let received = Recorder<Int>()
    let subscription = subject.subscribe(onNext: { received.append($0) })
    subject.onNext(1)
    subject.onNext(2)
    subscription.dispose()
    subject.onNext(3)
    #expect(received.values == [1, 2])
    #expect(!subject.hasObservers)
  }

  @Test func behaviorSubjectReplaysCurrentValue() {
    let subject = BehaviorSubject<Int, Never>(0)
    subject.onNext(1)
    let received = Recorder<Int>()
    let subscription = subject.subscribe(onNext: { received.append($0) })
    subject.onNext(2)
    #expect(received.values == [1, 2])
    #expect(subject.value == 2)
    subscription.dispose()
  }

  @Test func replaySubjectReplaysBoundedBuffer() {
    let subject = ReplaySubject<Int, Never>(bufferSize: 2)
    for value in 1...4 { subject.onNext(value) }
    let received = Recorder<Int>()
    let subscription = subject.subscribe(onNext: { received.append($0) })
    #expect(received.values == [3, 4])
    subscription.dispose()
  }

  // AT-01: a terminated subject delivers nothing more, and late subscribers get the terminal event.
  @Test func terminatedSubjectReplaysTerminalOnly() {
    let subject = BehaviorSubject<Int, TestError>(0)
    let early = Recorder<StreamEvent<Int, TestError>>()
    let subscription = subject.subscribe { early.append($0) }
    subject.onError(TestError("boom"))
    subject.onNext(1)
    subject.onCompleted()
    let late = Recorder<StreamEvent<Int, TestError>>()
    _ = subject.subscribe { late.append($0) }
    #expect(early.values == [.next(0), .error(TestError("boom"))])
    #expect(late.values == [.next(0), .error(TestError("boom"))])
    #expect(!subject.hasObservers)
    subscription.dispose()
  }

  // AT-04: a send from inside a callback is delivered to every observer after the current callout
  // returns, in order, never nested.
  @Test func recursiveSendIsQueuedInOrder() {
    let subject = PublishSubject<Int, Never>()
    let depth = Counter()
    let maxDepth = Counter()
    let first = Recorder<Int>()
    let second = Recorder<Int>()
    @Sendable func enter() {
      if depth.increment() > 1 { maxDepth.increment() }
    }
    let a = subject.subscribe(onNext: { value in
      enter()
      first.append(value)
      if value == 0 {
        subject.onNext(10)
        subject.onNext(100)
      }
      depth.decrement()
    })
    let b = subject.subscribe(onNext: { value in
      enter()
      second.append(value)
      depth.decrement()
    })
    subject.onNext(0)
    #expect(first.values == [0, 10, 100])
    #expect(second.values == [0, 10, 100])
    #expect(maxDepth.value == 0)
    a.dispose()
    b.dispose()
  }

  @Test func subscribingFromInsideACallbackSeesLaterValuesOnly() {
    let subject = BehaviorSubject<Int, Never>(0)
    let inner = Recorder<Int>()
    let bag = DisposeBag()
    subject.subscribe(onNext: { value in
      if value == 1 {
        subject.subscribe(onNext: { inner.append($0) }).disposed(by: bag)
      }
    }).disposed(by: bag)
    subject.onNext(1)
    subject.onNext(2)
    #expect(inner.values == [1, 2])
    // The closures capture the bag that holds their own subscriptions: a cycle the user breaks.
    bag.dispose()
  }

  @Test func disposingInsideCallbackStopsDeliveryAtOnce() {
    let subject = PublishSubject<Int, Never>()
    let received = Recorder<Int>()
    let holder = SerialDisposable()
    holder.replace(
      with: subject.subscribe(onNext: { value in
        received.append(value)
        if value == 1 {
          holder.dispose()
          subject.onNext(99)
        }
      })
    )
    subject.onNext(1)
    subject.onNext(2)
    #expect(received.values == [1])
  }

  // Burst policy: the queue of events sent during a callout is unbounded; a burst of 100,000
  // reentrant sends is delivered whole, in order, after the callout that sent it returns.
  @Test func reentrantBurstIsDeliveredWhole() {
    let subject = PublishSubject<Int, Never>()
    let received = Recorder<Int>()
    let subscription = subject.subscribe(onNext: { value in
      received.append(value)
      if value == -1 {
        for burst in 0..<100_000 { subject.onNext(burst) }
        received.append(-2)
      }
    })
    subject.onNext(-1)
    #expect(received.values == [-1, -2] + Array(0..<100_000))
    subscription.dispose()
  }
}
