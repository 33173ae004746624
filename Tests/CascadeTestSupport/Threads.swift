import CascadeStreams
import Dispatch
import Foundation

/// Runs `body(index)` on `count` new threads released together, and waits for all of them.
///
/// - Returns: `false` if they did not all finish within `timeout` (a deadlock fails the test
///   instead of hanging the run).
public func runOnThreads(
  _ count: Int,
  timeout: Duration = .seconds(20),
  _ body: @escaping @Sendable (Int) -> Void
) -> Bool {
  let group = DispatchGroup()
  let ready = DispatchSemaphore(value: 0)
  let go = DispatchSemaphore(value: 0)
  // The threads charge what they create to the caller's resource account (the test's).
  let account = ResourceAccount.current
  for index in 0..<count {
    group.enter()
    let thread = Thread {
      ready.signal()
      go.wait()
      if let account {
        account.withCurrent { body(index) }
      } else {
        body(index)
      }
      group.leave()
    }
    thread.stackSize = 1 << 20
    thread.start()
  }
  for _ in 0..<count { ready.wait() }
  for _ in 0..<count { go.signal() }
  let (seconds, attoseconds) = timeout.components
  let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
  return group.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
}
