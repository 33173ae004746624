import Dispatch
import Foundation

/// Runs `body` in a task and blocks the calling thread until it returns.
///
/// The harness is synchronous, W4 is not. The task runs on the global concurrent executor.
func runBlocking<T: Sendable>(
  _ body: @escaping @Sendable () async throws -> T
) throws -> T {
  let box = ResultBox<T>()
  let done = DispatchSemaphore(value: 0)
  Task {
    do {
      box.result = .success(try await body())
    } catch {
      box.result = .failure(error)
    }
    done.signal()
  }
  done.wait()
  guard let result = box.result else { preconditionFailure("the task ended without a result") }
  return try result.get()
}

private final class ResultBox<T: Sendable>: @unchecked Sendable {
  // Safety: written once by the task before it signals the semaphore, read after the wait.
  var result: Result<T, any Error>?
}

/// Suspends a task until a value reported by a subscriber reaches a target: how W4 awaits the
/// result of a command from the store's synchronous subscriber.
final class Waiter: @unchecked Sendable {
  // Safety: `target` and `continuation` are guarded by `lock`; the continuation is resumed
  // outside it.
  private let lock = NSLock()
  private var target = Int.max
  private var continuation: UnsafeContinuation<Void, Never>?

  /// Calls `start`, then returns once ``reached(_:)`` has reported a value ≥ `target`.
  ///
  /// The target is set before `start` runs, so a value reported while `start` is still running
  /// (from the same thread or another) is not missed.
  func wait(until target: Int, after start: () -> Void) async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      lock.withLock {
        self.target = target
        self.continuation = continuation
      }
      start()
    }
  }

  /// Reports a value; resumes the waiting task if it reached the target.
  func reached(_ value: Int) {
    let resumed = lock.withLock { () -> UnsafeContinuation<Void, Never>? in
      guard value >= target, let waiting = continuation else { return nil }
      continuation = nil
      target = .max
      return waiting
    }
    resumed?.resume()
  }
}
