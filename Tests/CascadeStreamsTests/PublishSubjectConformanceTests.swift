import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's PublishSubject cases (ReactiveX/RxSwift, Tests/RxSwiftTests/PublishSubjectTest.swift),
// re-expressed on Cascade's `TestScheduler`: the subject is made, subscribed to and let go of at
// the same virtual times, and `hasObservers` is read at the same times with the same answers.
@Suite(.checksResources)
struct PublishSubjectConformanceTests {
  let scheduler = TestScheduler()

  /// Makes a subject at 100, subscribes one observer at each of `subscribedAt` and disposes of
  /// them, in order, at each of `disposedAt`, and returns `hasObservers` at each of `readAt`.
  func hasObservers(
    subscribedAt: [Int],
    disposedAt: [Int],
    readAt: [Int]
  ) -> [Bool] {
    let subject = LockedBox<PublishSubject<Int, Never>?>(nil)
    let subscriptions = subscribedAt.map { _ in LockedBox<(any Disposable)?>(nil) }
    let readings = Recorder<Bool>()
    scheduler.schedule(after: .seconds(100)) { subject.value = PublishSubject() }
    for (slot, time) in subscribedAt.enumerated() {
      let observer = scheduler.createObserver(Int.self)
      scheduler.schedule(after: .seconds(time)) {
        subscriptions[slot].value = subject.value?.subscribe(observer)
      }
    }
    for (slot, time) in disposedAt.enumerated() {
      scheduler.schedule(after: .seconds(time)) { subscriptions[slot].value?.dispose() }
    }
    for time in readAt {
      scheduler.schedule(after: .seconds(time)) {
        readings.append(subject.value?.hasObservers ?? true)
      }
    }
    scheduler.run()
    return readings.values
  }

  // RxSwift: test_hasObserversNoObservers
  @Test func noObservers() {
    #expect(hasObservers(subscribedAt: [], disposedAt: [], readAt: [250]) == [false])
  }

  // RxSwift: test_hasObserversOneObserver
  @Test func oneObserver() {
    let readings = hasObservers(subscribedAt: [300], disposedAt: [400], readAt: [250, 350, 450])
    #expect(readings == [false, true, false])
  }

  // RxSwift: test_hasObserversManyObserver
  @Test func manyObservers() {
    let readings = hasObservers(
      subscribedAt: [300, 301, 302],
      disposedAt: [400, 410, 420],
      readAt: [250, 350, 405, 415, 450]
    )
    #expect(readings == [false, true, true, true, false])
  }
}
