/// Polls `condition` every millisecond until it holds or `timeout` passes.
///
/// Returns whether it held. For tests that wait for work on real queues without ever hanging.
public func eventually(
  timeout: Duration = .seconds(5),
  _ condition: @Sendable () -> Bool
) async -> Bool {
  let clock = ContinuousClock()
  let deadline = clock.now.advanced(by: timeout)
  while !condition() {
    if clock.now >= deadline { return false }
    try? await Task.sleep(for: .milliseconds(1))
  }
  return true
}

/// Polls `condition` on the main actor every millisecond until it holds or `timeout` passes.
@MainActor
public func eventuallyOnMain(
  timeout: Duration = .seconds(10),
  _ condition: @MainActor () -> Bool
) async -> Bool {
  let clock = ContinuousClock()
  let deadline = clock.now.advanced(by: timeout)
  while !condition() {
    if clock.now >= deadline { return false }
    try? await Task.sleep(for: .milliseconds(1))
  }
  return true
}
