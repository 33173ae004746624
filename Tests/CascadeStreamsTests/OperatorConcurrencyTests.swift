import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Dispatch
import Foundation
import Testing

/// Operators under real threads.
///
/// Every wait has a timeout, so a deadlock fails instead of hanging, and no wait blocks a thread
/// of the cooperative pool (the threads of the tests run in parallel with this one).
@Suite(.checksResources)
struct OperatorConcurrencyTests {
  /// Runs `first` and `second` on two new threads released together.
  ///
  /// Returns `true` if both return within the safety net (a deadlock fails the test instead of
  /// hanging it). The wait blocks no thread of the cooperative pool.
  private func bothFinish(
    _ first: @escaping @Sendable () -> Void,
    _ second: @escaping @Sendable () -> Void
  ) async -> Bool {
    await runOnThreads(2, timeout: .seconds(60)) { index in
      if index == 0 { first() } else { second() }
    }
  }

  /// Calls `body` `count` times, stopping early when it returns `false`.
  private func repeatRounds(_ count: Int = 3, _ body: () async -> Bool) async {
    for round in 1...count {
      guard await body() else {
        Issue.record("round \(round) did not finish within 60 s: deadlock")
        return
      }
    }
  }

  private static let iterations = 2_000

  // MARK: - AT-05: no user callouts under internal locks

  // AT-05: replay-on-subscribe of `share(replay: 1)`. T1 holds L and subscribes (the share replays
  // to T1's observer) and disposes; T2 emits, and an existing subscriber's onNext needs L.
  @Test func shareReplayOnSubscribeDoesNotDeadlockWithAForeignLock() async {
    let foreign = NSLock()
    let source = PublishSubject<Int, Never>()
    let shared = source.share(replay: 1)
    let existing = shared.subscribe(onNext: { _ in
      foreign.lock()
      foreign.unlock()
    })
    source.onNext(0)
    await repeatRounds {
      await bothFinish(
        {
          for _ in 0..<Self.iterations {
            foreign.lock()
            shared.subscribe(onNext: { _ in }).dispose()
            foreign.unlock()
          }
        },
        {
          for value in 0..<Self.iterations { source.onNext(value) }
        }
      )
    }
    existing.dispose()
  }

  // AT-05: replay-on-subscribe of a `ReplaySubject`, same shape.
  @Test func replaySubjectReplayOnSubscribeDoesNotDeadlockWithAForeignLock() async {
    let foreign = NSLock()
    let subject = ReplaySubject<Int, Never>(bufferSize: 1)
    let existing = subject.subscribe(onNext: { _ in
      foreign.lock()
      foreign.unlock()
    })
    subject.onNext(0)
    await repeatRounds {
      await bothFinish(
        {
          for _ in 0..<Self.iterations {
            foreign.lock()
            subject.subscribe(onNext: { _ in }).dispose()
            foreign.unlock()
          }
        },
        {
          for value in 0..<Self.iterations { subject.onNext(value) }
        }
      )
    }
    existing.dispose()
  }

  // AT-05: connect/disconnect of `share`. The source's subscription code and its teardown need
  // L; T1 holds L while it subscribes and disposes (connecting and disconnecting when it is
  // alone), T2 subscribes and disposes without it. L is recursive: T1's own connect takes it
  // again.
  @Test func shareConnectAndDisconnectDoNotDeadlockWithAForeignLock() async {
    let foreign = NSRecursiveLock()
    let source = Observable<Int, Never>.create { observer in
      foreign.lock()
      foreign.unlock()
      observer.onNext(1)
      return Disposables.create {
        foreign.lock()
        foreign.unlock()
      }
    }
    let shared = source.share()
    await repeatRounds {
      await bothFinish(
        {
          for _ in 0..<Self.iterations {
            foreign.lock()
            shared.subscribe(onNext: { _ in }).dispose()
            foreign.unlock()
          }
        },
        {
          for _ in 0..<Self.iterations {
            shared.subscribe(onNext: { _ in }).dispose()
          }
        }
      )
    }
  }

  // AT-05: dispose of a `combineLatest`. T1 holds L and disposes a subscription; T2 emits into the
  // sources, and the subscribers' onNext needs L.
  @Test func combineLatestDisposeDoesNotDeadlockWithAForeignLock() async {
    let foreign = NSLock()
    let a = PublishSubject<Int, Never>()
    let b = PublishSubject<Int, Never>()
    let needsLock: @Sendable (Int) -> Void = { _ in
      foreign.lock()
      foreign.unlock()
    }
    let existing = a.combineLatest(b, +).subscribe(onNext: needsLock)
    await repeatRounds {
      await bothFinish(
        {
          for _ in 0..<Self.iterations {
            let subscription = a.combineLatest(b, +).subscribe(onNext: needsLock)
            foreign.lock()
            subscription.dispose()
            foreign.unlock()
          }
        },
        {
          for value in 0..<Self.iterations {
            a.onNext(value)
            b.onNext(value)
          }
        }
      )
    }
    existing.dispose()
  }

  // AT-05: dispose of a `merge` and a `flatMap` inner. T1 holds L and disposes a subscription
  // (which disposes its inner subscriptions); T2 emits into the inner, and onNext needs L.
  @Test func mergeAndFlatMapInnerDisposeDoNotDeadlockWithAForeignLock() async {
    let foreign = NSLock()
    let inner = PublishSubject<Int, Never>()
    let other = PublishSubject<Int, Never>()
    let needsLock: @Sendable (Int) -> Void = { _ in
      foreign.lock()
      foreign.unlock()
    }
    let existing = inner.merge(with: other).subscribe(onNext: needsLock)
    await repeatRounds {
      await bothFinish(
        {
          for index in 0..<Self.iterations {
            let subscription =
              index.isMultiple(of: 2)
              ? Observable.just(0).flatMap { _ in inner }.subscribe(onNext: needsLock)
              : Observable.merge(inner.asObservable(), other.asObservable())
                .subscribe(onNext: needsLock)
            foreign.lock()
            subscription.dispose()
            foreign.unlock()
          }
        },
        {
          for value in 0..<Self.iterations { inner.onNext(value) }
        }
      )
    }
    existing.dispose()
  }

  // MARK: - AT-06: a shared stream connects upstream exactly once

  // AT-06: 32 threads released together subscribe to a cold source shared with replay 0; the
  // source is subscribed exactly once per round, for 100 rounds.
  @Test func concurrentFirstSubscribersConnectOnce() async {
    let threads = 32
    let rounds = 100
    let subscriptions = Counter()
    let shared = Observable<Int, Never>.create { _ in
      subscriptions.increment()
      return Disposables.empty
    }
    .share()
    let starts = (0..<threads).map { _ in DispatchSemaphore(value: 0) }
    let subscribed = DispatchSemaphore(value: 0)
    let finished = DispatchGroup()
    let live = LockedValue<[any Disposable]>([])
    for start in starts {
      finished.enter()
      Thread {
        for _ in 0..<rounds {
          guard start.wait(timeout: .now() + 60) == .success else { break }
          let subscription = shared.subscribe { _ in }
          live.withLock { $0.append(subscription) }
          subscribed.signal()
        }
        finished.leave()
      }
      .start()
    }
    roundLoop: for round in 1...rounds {
      for start in starts { start.signal() }
      // Waited for off the cooperative pool: the subscribers run on threads of their own.
      let allSubscribed = await onOwnThread {
        (0..<threads).allSatisfy { _ in subscribed.wait(timeout: .now() + 60) == .success }
      }
      guard allSubscribed else {
        Issue.record("round \(round): subscribers did not finish within 60 s")
        break roundLoop
      }
      let subscriptionsOfRound = live.withLock { live in
        defer { live = [] }
        return live
      }
      #expect(subscriptionsOfRound.count == threads)
      for subscription in subscriptionsOfRound { subscription.dispose() }
      #expect(subscriptions.value == round, "round \(round)")
    }
    #expect(await onOwnThread { finished.wait(timeout: .now() + 60) == .success })
    for subscription in live.withLock({ $0 }) { subscription.dispose() }
  }

  // MARK: - Serialization

  @Test func mergeSerializesConcurrentSources() async {
    let senders = 4
    let count = 2_000
    let sources = (0..<senders).map { _ in PublishSubject<Int, Never>() }
    let inside = LockedValue(0)
    let overlaps = Counter()
    let received = Recorder<Int>()
    let subscription = Observable.merge(sources.map { $0.asObservable() })
      .subscribe(onNext: { value in
        let entered = inside.withLock { inside in
          inside += 1
          return inside
        }
        if entered > 1 { overlaps.increment() }
        received.append(value)
        inside.withLock { $0 -= 1 }
      })
    let group = DispatchGroup()
    for (sender, source) in sources.enumerated() {
      group.enter()
      Thread {
        for value in 0..<count { source.onNext(sender * count + value) }
        group.leave()
      }
      .start()
    }
    #expect(await onOwnThread { group.wait(timeout: .now() + 60) == .success })
    subscription.dispose()
    #expect(overlaps.value == 0)
    let values = received.values
    #expect(values.count == senders * count)
    for sender in 0..<senders {
      let own = values.filter { $0 / count == sender }
      #expect(own == Array(sender * count..<(sender + 1) * count))
    }
  }

  @Test func combineLatestEndsWithTheLatestValuesOfConcurrentSources() async {
    let count = 2_000
    let a = PublishSubject<Int, Never>()
    let b = PublishSubject<Int, Never>()
    let last = LockedValue<String?>(nil)
    let subscription = a.combineLatest(b) { "\($0)-\($1)" }
      .subscribe(onNext: { value in last.withLock { $0 = value } })
    let group = DispatchGroup()
    for source in [a, b] {
      group.enter()
      Thread {
        for value in 0..<count { source.onNext(value) }
        group.leave()
      }
      .start()
    }
    #expect(await onOwnThread { group.wait(timeout: .now() + 60) == .success })
    #expect(last.withLock { $0 } == "\(count - 1)-\(count - 1)")
    subscription.dispose()
  }

  @Test func zipPairsConcurrentSourcesInOrderWithoutOverlap() async {
    let count = 2_000
    let a = PublishSubject<Int, Never>()
    let b = PublishSubject<Int, Never>()
    let inside = LockedValue(0)
    let overlaps = Counter()
    let received = Recorder<String>()
    let subscription = a.zip(b) { "\($0)-\($1)" }
      .subscribe(onNext: { value in
        let entered = inside.withLock { inside in
          inside += 1
          return inside
        }
        if entered > 1 { overlaps.increment() }
        received.append(value)
        inside.withLock { $0 -= 1 }
      })
    let finished = await runOnThreads(2, timeout: .seconds(60)) { index in
      let source = index == 0 ? a : b
      for value in 0..<count { source.onNext(value) }
    }
    #expect(finished)
    subscription.dispose()
    #expect(overlaps.value == 0)
    #expect(received.values == (0..<count).map { "\($0)-\($0)" })
  }

  @Test func ambMirrorsExactlyOneOfConcurrentSources() async {
    let count = 2_000
    let sources = [PublishSubject<Int, Never>(), PublishSubject<Int, Never>()]
    let received = Recorder<Int>()
    let subscription = sources[0].amb(sources[1])
      .subscribe(onNext: { received.append($0) })
    let finished = await runOnThreads(2, timeout: .seconds(60)) { index in
      for value in 0..<count { sources[index].onNext(index * count + value) }
    }
    #expect(finished)
    subscription.dispose()
    let values = received.values
    let winner = (values.first ?? 0) / count
    #expect(values == Array(winner * count..<(winner + 1) * count))
  }

  // A replaced inner's values are dropped from the moment of the switch; only a callout that had
  // already started (it is not interrupted) may finish after it.
  @Test func flatMapLatestDropsAReplacedInnerAfterTheSwitch() async {
    let outer = PublishSubject<Int, Never>()
    let inners = (0..<2).map { _ in PublishSubject<Int, Never>() }
    let afterSwitch = LockedValue(false)
    let stale = Counter()
    let subscription = outer.flatMapLatest { inners[$0] }
      .subscribe(onNext: { value in
        if value == 0, afterSwitch.withLock({ $0 }) { stale.increment() }
      })
    outer.onNext(0)
    let group = DispatchGroup()
    group.enter()
    Thread {
      for _ in 0..<5_000 { inners[0].onNext(0) }
      group.leave()
    }
    .start()
    outer.onNext(1)
    afterSwitch.withLock { $0 = true }
    inners[1].onNext(1)
    #expect(await onOwnThread { group.wait(timeout: .now() + 60) == .success })
    #expect(stale.value <= 1)
    subscription.dispose()
  }

  // `scan`'s accumulator and `distinctUntilChanged`'s previous element are read and written
  // without the runtime's exclusivity checks (`@exclusivity(unchecked)`: W6b), which rests on
  // the stream grammar: calls to one observer never overlap. A subject fed from four threads
  // serializes them; under ThreadSanitizer (CI), a delivery that overlapped another would be
  // reported as a race on those properties. Every value must be counted once, in one running
  // total that only grows.
  @Test func scanAndDistinctUntilChangedUnderConcurrentSenders() async {
    let subject = PublishSubject<Int, Never>()
    let totals = Recorder<Int>()
    let subscription = subject.scan(0) { $0 + $1 }.distinctUntilChanged()
      .subscribe(onNext: { totals.append($0) })
    let perThread = 2_000
    let finished = await runOnThreads(4) { _ in
      for _ in 0..<perThread { subject.onNext(1) }
    }
    #expect(finished)
    let values = totals.values
    #expect(values == Array(1...(4 * perThread)), "each value once, the total growing by one")
    subscription.dispose()
  }

  // `take(until:)` lets go of the other stream when it completes without a value (RxSwift's
  // `testTakeUntil_NoPreempt_SomeData_Empty`), removing that subscription from the sink while
  // the source may be sending on another thread. Every value still arrives, in order, and
  // nothing stays subscribed to the completed stream.
  @Test func takeUntilLetsGoOfTheOtherStreamWhileTheSourceSends() async {
    await repeatRounds {
      let source = PublishSubject<Int, Never>()
      let other = PublishSubject<Int, Never>()
      let received = Recorder<Int>()
      let subscription = source.take(until: other)
        .subscribe(onNext: { received.append($0) })
      let finished = await bothFinish(
        { for value in 0..<Self.iterations { source.onNext(value) } },
        { other.onCompleted() }
      )
      #expect(!other.hasObservers)
      #expect(received.values == Array(0..<Self.iterations))
      subscription.dispose()
      #expect(!source.hasObservers)
      return finished
    }
  }
}
