/// Waits until `condition` holds, checking every few milliseconds, for at most `timeout`.
///
/// - Returns: Whether the condition held before the timeout.
func eventually(
  timeout: Duration = .seconds(5),
  _ condition: () -> Bool
) async -> Bool {
  let deadline = ContinuousClock.now + timeout
  while !condition() {
    if ContinuousClock.now >= deadline { return false }
    try? await Task.sleep(for: .milliseconds(2))
  }
  return true
}
