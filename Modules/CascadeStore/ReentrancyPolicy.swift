/// What a store does with an input sent while it is processing another on the same thread: from
/// the reducer, a subscriber, a middleware, or a command started synchronously.
///
/// Whatever the policy, an input is never processed recursively: processing is one input at a
/// time, in order. Inputs sent from *other* threads while the store is busy are always queued;
/// that is concurrency, not reentrancy.
///
/// Peers each hard-code one choice: ReSwift stops the process, TCA warns, ReactorKit queues.
public enum ReentrancyPolicy: Sendable, Hashable {
  /// Queue the input; it is processed right after the current one has been fully processed
  /// (middlewares run, subscribers notified). The default.
  case queue
  /// Queue the input as ``queue`` does, and report the reentrant send through IssueReporting,
  /// naming the input and the one being processed — a test failure under Swift Testing or
  /// XCTest, a runtime warning otherwise.
  case report
  /// Drop the input and report it through IssueReporting.
  case reject
}
