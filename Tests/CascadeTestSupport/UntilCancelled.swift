import Dispatch

/// Suspends the current task until it is cancelled, then throws `CancellationError`.
///
/// The stand-in for work that never ends on its own: a command, effect or stream that only its
/// cancellation stops. Unlike a long sleep, it holds no timer and has no duration, so a
/// test that uses it cannot depend on the clock.
///
/// ```swift
/// store.run(id: "search") { _, _ in
///   try await suspendUntilCancelled()
/// }
/// ```
public func suspendUntilCancelled() async throws {
  // An `AsyncStream`'s iterator returns `nil` as soon as its task is cancelled; the stream
  // itself never yields, and stays open while its continuation is alive.
  let (stream, continuation) = AsyncStream<Never>.makeStream()
  for await _ in stream {}
  withExtendedLifetime(continuation) {}
  throw CancellationError()
}

/// Waits until the main queue has run everything enqueued on it before this call.
///
/// `MainScheduler` delivers synchronously only when nothing else waits for the main queue; while
/// other tests (which run in parallel) have deliveries queued there, it enqueues, to keep their
/// order. A test that checks what the main queue delivered waits for that delivery with this:
/// the main queue runs its work in order, so this returns once the delivery has run.
public func mainQueueDrained() async {
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    DispatchQueue.main.async { continuation.resume() }
  }
}
