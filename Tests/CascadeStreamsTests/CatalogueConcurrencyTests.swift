import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Foundation
import Testing

/// The RxSwift catalogue's operators with `@unchecked Sendable` sinks, under real threads.
///
/// `sample`, `buffer`, `window`, `groupBy`, `reduce`, `toArray` and `asSingle`: run under
/// ThreadSanitizer by CI (the suite's name ends in `ConcurrencyTests`).
/// `zip` and `amb` are in ``OperatorConcurrencyTests``.
///
/// Outcomes are checked by content, never by timing: what arrives, in what order, and how often.
@Suite(.checksResources)
struct CatalogueConcurrencyTests {
  static let count = 2_000

  // The source and the sampler send from two threads: each sample is a value the source sent,
  // in ascending order, and deliveries never overlap.
  @Test func sampleOfConcurrentSourceAndSamplerDeliversSentValuesInOrder() async {
    let source = PublishSubject<Int, Never>()
    let sampler = PublishSubject<Void, Never>()
    let inside = LockedValue(0)
    let overlaps = Counter()
    let received = Recorder<Int>()
    let subscription = source.sample(sampler).subscribe(onNext: { value in
      if inside.withLock({ inside -> Int in
        inside += 1
        return inside
      }) > 1 {
        overlaps.increment()
      }
      received.append(value)
      inside.withLock { $0 -= 1 }
    })
    let finished = await runOnThreads(2) { index in
      for value in 0..<Self.count {
        if index == 0 { source.onNext(value) } else { sampler.onNext(()) }
      }
    }
    #expect(finished)
    subscription.dispose()
    let values = received.values
    #expect(overlaps.value == 0)
    #expect(values == values.sorted() && Set(values).count == values.count)
    #expect(values.allSatisfy { (0..<Self.count).contains($0) })
  }

  // Values from one thread, time spans ending on a dispatch queue: every value arrives once, in
  // order, in buffers of at most `count`.
  @Test func bufferWithItsTimerOnAnotherThreadLosesAndRepeatsNothing() async {
    let source = PublishSubject<Int, Never>()
    let received = Recorder<[Int]>()
    let completed = Signal()
    let subscription = source.buffer(
      timeSpan: .milliseconds(1),
      count: 10,
      scheduler: SerialDispatchQueueScheduler(label: "buffer-timer")
    )
    .subscribe(onNext: { received.append($0) }, onCompleted: { completed.fire() })
    let finished = await runOnThreads(1) { _ in
      for value in 0..<Self.count { source.onNext(value) }
      source.onCompleted()
    }
    #expect(finished)
    #expect(await completed.wait())
    subscription.dispose()
    #expect(received.values.joined().elementsEqual(0..<Self.count))
    #expect(received.values.allSatisfy { $0.count <= 10 })
  }

  // The same for `window`: the windows, one after another, hold every value once, in order.
  //
  // This test found a defect, since fixed: when the timer opened a window on its thread while the
  // source sent on another, a value could reach the new window's subject before the window was
  // delivered to the subscriber, which then never saw it. Openings, values and closings now go
  // through one ordered queue.
  @Test func windowWithItsTimerOnAnotherThreadLosesAndRepeatsNothing() async {
    let source = PublishSubject<Int, Never>()
    let received = Recorder<Int>()
    let sizes = Recorder<Int>()
    let completed = Signal()
    let subscription = source.window(
      timeSpan: .milliseconds(1),
      count: 10,
      scheduler: SerialDispatchQueueScheduler(label: "window-timer")
    )
    .subscribe(
      onNext: { window in
        let size = Counter()
        _ = window.subscribe(
          onNext: { value in
            size.increment()
            received.append(value)
          },
          onCompleted: { sizes.append(size.value) }
        )
      },
      onCompleted: { completed.fire() }
    )
    let finished = await runOnThreads(1) { _ in
      for value in 0..<Self.count { source.onNext(value) }
      source.onCompleted()
    }
    #expect(finished)
    #expect(await completed.wait())
    subscription.dispose()
    #expect(received.values == Array(0..<Self.count))
    #expect(sizes.values.allSatisfy { $0 <= 10 })
  }

  // One thread sends into `groupBy` while another disposes of the subscription to the groups:
  // the groups subscribed keep the source (RxSwift's reference counting; the first is
  // subscribed before the race), so each receives every value of its key from its first one on,
  // in order, and then the completion.
  @Test func groupByGroupsOutliveTheResultDisposedOnAnotherThread() async {
    for _ in 0..<20 {
      let source = PublishSubject<Int, Never>()
      let received = LockedValue<[Int: [Int]]>([:])
      let completed = Counter()
      let groupSubscriptions = CompositeDisposable()
      let outer = source.groupBy { $0 % 4 }.subscribe(onNext: { group in
        groupSubscriptions.insert(
          group.subscribe(
            onNext: { value in received.withLock { $0[group.key, default: []].append(value) } },
            onCompleted: { completed.increment() }
          )
        )
      })
      source.onNext(0)
      let finished = await runOnThreads(2) { index in
        if index == 0 {
          for value in 1..<Self.count { source.onNext(value) }
          source.onCompleted()
        } else {
          outer.dispose()
        }
      }
      #expect(finished)
      let groups = received.withLock { $0 }
      #expect(groups[0]?.first == 0)
      #expect(completed.value == groups.count)
      for (key, values) in groups {
        #expect(values == Array(stride(from: values[0], to: Self.count, by: 4)))
        #expect(values[0] % 4 == key)
      }
      groupSubscriptions.dispose()
      #expect(!source.hasObservers)
    }
  }

  // One thread sends and completes while another disposes: `reduce`, `toArray` and `asSingle`
  // deliver at most one result, and a result delivered is the whole one.
  @Test func aResultRacingDisposeIsWholeOrAbsent() async {
    let expectedSum = (0..<Self.count).reduce(0, +)
    for _ in 0..<20 {
      let source = PublishSubject<Int, Never>()
      let sums = Recorder<Int>()
      let arrays = Recorder<Int>()
      let singles = Recorder<Int>()
      let reduced = source.reduce(0, +).subscribe(onNext: { sums.append($0) })
      let collected = source.toArray().subscribe { result in
        if case .success(let values) = result { arrays.append(values.count) }
      }
      let last = source.reduce(0, +).asSingle().subscribe { result in
        if case .success(let value) = result { singles.append(value) }
      }
      let finished = await runOnThreads(2) { index in
        if index == 0 {
          for value in 0..<Self.count { source.onNext(value) }
          source.onCompleted()
        } else {
          reduced.dispose()
          collected.dispose()
          last.dispose()
        }
      }
      #expect(finished)
      #expect(sums.values.count <= 1 && sums.values.allSatisfy { $0 == expectedSum })
      #expect(arrays.values.count <= 1 && arrays.values.allSatisfy { $0 == Self.count })
      #expect(singles.values.count <= 1 && singles.values.allSatisfy { $0 == expectedSum })
    }
  }
}
