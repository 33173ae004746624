import AppTestSupport
import Testing

@testable import InspectorKit

/// `CheckpointStore` under the warming thread and request threads at once.
///
/// Its state is guarded by an `NSCondition` (`@unchecked Sendable`). Run under ThreadSanitizer
/// by CI (the suite's name ends in `ConcurrencyTests`).
@Suite struct CheckpointStoreConcurrencyTests {
  // A warming thread publishes a checkpoint every 10 steps up to 1,000 while three request
  // threads ask for machines and publish their own: every answer is a checkpoint at or before
  // the step asked for, whose machine is the one computed for it (here, its own step count).
  @Test func warmingAndRequestsShareCheckpoints() async {
    let store = CheckpointStore(initial: 0, interval: 10)
    store.setWarming(true)
    let wrong = Counter()
    let finished = await runOnThreads(4) { thread in
      if thread == 0 {
        for steps in stride(from: 10, through: 1_000, by: 10) {
          _ = store.publish(steps, after: steps, goingTo: steps)
        }
        store.setWarming(false)
        return
      }
      for request in 0..<300 {
        let count = (request * 37 + thread * 101) % 1_000
        let start = store.start(for: count, waitingForWarming: thread == 1)
        if start.steps > count || start.steps % 10 != 0 || start.machine != start.steps {
          wrong.increment()
        }
        let next = start.steps + 10
        if next <= count, let later = store.publish(next, after: next, goingTo: count) {
          if later.machine != later.steps || later.steps > count { wrong.increment() }
        }
      }
    }
    #expect(finished)
    #expect(wrong.value == 0)
    #expect(store.start(for: 1_000, waitingForWarming: true) == (1_000, 1_000))
  }
}
