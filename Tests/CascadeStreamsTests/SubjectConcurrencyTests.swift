import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Synchronization
import Testing

@Suite(.checksResources)
struct SubjectConcurrencyTests {
  // AT-02: a value racing a completion on 1,000 fresh subjects: at most one value, exactly one
  // terminal event per subscriber, every send returns.
  @Test func oneTerminalEventUnderRaces() async {
    let terminals = Counter()
    let violations = Counter()
    for _ in 0..<1_000 {
      let subject = PublishSubject<Int, Never>()
      let values = Counter()
      let ends = Counter()
      let subscription = subject.subscribe(
        onNext: { _ in
          if ends.value > 0 { violations.increment() }
          values.increment()
        },
        onCompleted: {
          ends.increment()
          terminals.increment()
        }
      )
      let finished = await runOnThreads(2) { index in
        if index == 0 { subject.onNext(1) } else { subject.onCompleted() }
      }
      #expect(finished)
      if values.value > 1 || ends.value != 1 { violations.increment() }
      subscription.dispose()
    }
    #expect(violations.value == 0)
    #expect(terminals.value == 1_000)
  }

  // AT-02, for the observer of `Observable.create`: the grammar holds for a racing producer.
  @Test func createEnforcesOneTerminalUnderRaces() async {
    let terminals = Counter()
    let violations = Counter()
    for _ in 0..<1_000 {
      let values = Counter()
      let ends = Counter()
      let box = LockedValue<AnyObserver<Int, TestError>?>(nil)
      let stream = Observable<Int, TestError>.create { observer in
        box.withLock { $0 = observer }
        return Disposables.empty
      }
      let subscription = stream.subscribe(
        onNext: { _ in
          if ends.value > 0 { violations.increment() }
          values.increment()
        },
        onError: { _ in
          ends.increment()
          terminals.increment()
        }
      )
      let observer = box.withLock { $0 }!
      let finished = await runOnThreads(2) { index in
        if index == 0 { observer.onNext(1) } else { observer.onError(TestError("cancel")) }
      }
      #expect(finished)
      if values.value > 1 || ends.value != 1 { violations.increment() }
      subscription.dispose()
    }
    #expect(violations.value == 0)
    #expect(terminals.value == 1_000)
  }

  // AT-03: 8 threads × 10,000 values into one subject; callouts never overlap, nothing is lost,
  // and each thread's values arrive in the order it sent them.
  @Test func calloutsAreSerialized() async {
    let threads = 8
    let perThread = 10_000
    let subject = PublishSubject<(thread: Int, index: Int), Never>()
    let probe = CalloutProbe(threads: threads)
    let subscription = subject.subscribe(onNext: probe.observe)
    let finished = await runOnThreads(threads) { thread in
      for index in 0..<perThread { subject.onNext((thread, index)) }
    }
    #expect(finished)
    #expect(probe.overlaps.value == 0)
    #expect(probe.orderViolations.value == 0)
    #expect(probe.received.value == threads * perThread)
    subscription.dispose()
  }

  // A subscriber joining while another thread sends sees the current value, then every later
  // one, in increasing order: its last value is the subject's final value (cf. AT-13).
  @Test func concurrentSubscribersNeverMissTheLatestValue() async {
    for _ in 0..<200 {
      let subject = BehaviorSubject<Int, Never>(0)
      let bag = DisposeBag()
      let lastSeen = LockedValue([Int](repeating: -1, count: 4))
      let violations = Counter()
      let finished = await runOnThreads(4) { thread in
        if thread == 0 {
          for value in 1...200 { subject.onNext(value) }
        } else {
          subject.subscribe(onNext: { value in
            let increasing = lastSeen.withLock { last -> Bool in
              defer { last[thread] = value }
              return value > last[thread]
            }
            if !increasing { violations.increment() }
          }).disposed(by: bag)
        }
      }
      #expect(finished)
      #expect(violations.value == 0)
      #expect(lastSeen.withLock { Array($0.dropFirst()) } == [200, 200, 200])
      bag.dispose()
    }
  }
}
