/// Suspends the current task until it is cancelled, then throws `CancellationError`.
///
/// The stand-in for work that never ends on its own: a command, effect or stream that only its
/// cancellation stops. Unlike a long `Task.sleep`, it holds no timer and has no duration, so a
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
