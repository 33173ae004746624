import CascadeStreams
import Foundation

/// Runs `body(index)` on `count` new threads released together, and waits for all of them
/// without blocking a thread of the cooperative pool.
///
/// The threads charge what they create to the caller's resource account (the test's). The wait
/// is a continuation the last thread resumes, so tests that use this run in parallel with the
/// rest of the suite without starving the pool's few threads.
///
/// - Parameters:
///   - count: How many threads.
///   - timeout: A safety net: how long to wait before giving up on threads that hang.
///   - body: The work of thread `index`.
/// - Returns: `false` if they did not all finish within `timeout` (a deadlock fails the test
///   instead of hanging the run).
public func runOnThreads(
  _ count: Int,
  timeout: Duration = .seconds(120),
  _ body: @escaping @Sendable (Int) -> Void
) async -> Bool {
  let finished = Counter()
  let ready = Counter()
  let go = Signal()
  let account = ResourceAccount.current
  for index in 0..<count {
    let thread = Thread {
      ready.increment()
      _ = go.waitBlocking(timeout: timeout)
      if let account {
        account.withCurrent { body(index) }
      } else {
        body(index)
      }
      finished.increment()
    }
    thread.stackSize = 1 << 20
    thread.start()
  }
  // Released together once all exist, so they contend from the first instruction.
  _ = await ready.wait(timeout: timeout) { $0 == count }
  go.fire()
  return await finished.wait(timeout: timeout) { $0 == count }
}

/// Runs `body` on a new thread of its own and returns its result, without blocking a thread of
/// the cooperative pool: for blocking work (semaphores, joins) that a test must do.
///
/// `body` runs outside the test's task: record expectations after this returns, from its result.
public func onOwnThread<Result: Sendable>(
  _ body: @escaping @Sendable () -> Result
) async -> Result {
  let account = ResourceAccount.current
  return await withCheckedContinuation { continuation in
    let thread = Thread {
      let result = account.map { account in account.withCurrent(body) } ?? body()
      continuation.resume(returning: result)
    }
    thread.stackSize = 1 << 20
    thread.start()
  }
}
