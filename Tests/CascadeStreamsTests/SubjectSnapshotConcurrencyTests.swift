import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Foundation
import Synchronization
import Testing

/// The subject's lock-free delivery under senders, subscribers and disposals racing on threads.
///
/// An atomic count decides the emitter, which reads its own snapshot of the observers. Runs
/// under ThreadSanitizer and AddressSanitizer in CI (`.ci/run`: suites named `…ConcurrencyTests`).
@Suite(.checksResources)
struct SubjectSnapshotConcurrencyTests {
  // 4 threads send 5,000 values each while 2 threads subscribe and dispose 100 observers each:
  // the permanent observer receives every value once, callouts never overlap, and every
  // observer sees each sender's values in the order they were sent.
  @Test func sendersRacingSubscribersAndDisposals() async {
    let senders = 4
    let perSender = 5_000
    let subject = PublishSubject<(thread: Int, index: Int), Never>()
    let probe = CalloutProbe(threads: senders)
    let permanent = subject.subscribe(onNext: probe.observe)
    let finished = await runOnThreads(senders + 2) { thread in
      if thread < senders {
        for index in 0..<perSender { subject.onNext((thread, index)) }
        return
      }
      for _ in 0..<100 {
        let seen = LockedValue([Int](repeating: -1, count: senders))
        let subscription = subject.subscribe(onNext: { value in
          let increasing = seen.withLock { last -> Bool in
            defer { last[value.thread] = value.index }
            return value.index > last[value.thread]
          }
          if !increasing { probe.orderViolations.increment() }
        })
        subscription.dispose()
      }
    }
    #expect(finished)
    #expect(probe.overlaps.value == 0)
    #expect(probe.orderViolations.value == 0)
    #expect(probe.received.value == senders * perSender)
    permanent.dispose()
  }

  // A value racing a completion and a disposal on 500 fresh subjects: the observer that stays
  // receives at most the one value, before exactly one completion; every call returns.
  @Test func aValueRacingACompletionAndADisposal() async {
    let violations = Counter()
    for _ in 0..<500 {
      let subject = PublishSubject<Int, Never>()
      let values = Counter()
      let ends = Counter()
      let stays = subject.subscribe(
        onNext: { _ in
          if ends.value > 0 { violations.increment() }
          values.increment()
        },
        onCompleted: { ends.increment() }
      )
      let leaves = subject.subscribe(onNext: { _ in })
      subject.onNext(0)
      let finished = await runOnThreads(3) { thread in
        switch thread {
        case 0: subject.onNext(1)
        case 1: subject.onCompleted()
        default: leaves.dispose()
        }
      }
      #expect(finished)
      if values.value < 1 || values.value > 2 || ends.value != 1 { violations.increment() }
      stays.dispose()
    }
    #expect(violations.value == 0)
  }

  // A disposal takes the emitter's turn to drop the snapshot only under the subject's lock,
  // where no value can be queued meanwhile: it never delivers values to the other observers on
  // the disposing thread (which may hold a lock of its own that their callbacks take; found by
  // OperatorConcurrencyTests' share test under ThreadSanitizer, when a disposal could deliver).
  @Test func disposingNeverDeliversOnTheDisposingThread() async {
    let subject = PublishSubject<Int, Never>()
    let disposer = LockedValue<ObjectIdentifier?>(nil)
    let deliveredOnDisposer = Counter()
    let received = Counter()
    let existing = subject.subscribe(onNext: { _ in
      let here = ObjectIdentifier(Thread.current)
      if disposer.withLock({ $0 }) == here { deliveredOnDisposer.increment() }
      received.increment()
    })
    let finished = await runOnThreads(2) { thread in
      if thread == 0 {
        for value in 0..<5_000 { subject.onNext(value) }
      } else {
        disposer.withLock { $0 = ObjectIdentifier(Thread.current) }
        for _ in 0..<2_000 { subject.subscribe(onNext: { _ in }).dispose() }
      }
    }
    #expect(finished)
    #expect(deliveredOnDisposer.value == 0)
    #expect(received.value == 5_000)
    existing.dispose()
  }
}
