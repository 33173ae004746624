import CascadeTestSupport
import Foundation

/// Runs `body(index)` on `count` new threads released together, as `runOnThreads` does, and
/// waits for them without blocking a thread of the cooperative pool.
///
/// `runOnThreads` blocks its caller until the threads are done; here a thread of its own does
/// that, and the caller awaits its result. A blocked pool thread would starve the tasks, timers
/// and deliveries the threads wait for (on Linux the pool runs on dispatch's global queues).
///
/// - Returns: `false` if they did not all finish within `timeout` (a safety net: a deadlock fails
///   the test instead of hanging the run).
func onThreads(
  _ count: Int,
  timeout: Duration = .seconds(20),
  _ body: @escaping @Sendable (Int) -> Void
) async -> Bool {
  let finished = Watched<Bool?>(nil)
  Thread { finished.set(runOnThreads(count, timeout: timeout, body)) }.start()
  // `runOnThreads` returns within `timeout`; the margin only covers starting the threads.
  guard await finished.wait(timeout: timeout + .seconds(60), until: { $0 != nil }) else {
    return false
  }
  return finished.value ?? false
}
