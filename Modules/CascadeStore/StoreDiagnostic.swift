/// Something a store noticed that its user should hear about.
///
/// By default a store reports these through IssueReporting: under Swift Testing or XCTest they
/// are test failures (warnings for ``lateInput(_:origin:)``), elsewhere runtime warnings. Pass
/// `diagnostics:` when creating the store to route them elsewhere (a logger, a test's collector).
public enum StoreDiagnostic: Sendable, CustomStringConvertible {
  /// An input was sent from the store's own processing (reducer, subscriber, middleware or
  /// synchronous command) under the ``ReentrancyPolicy/report`` or ``ReentrancyPolicy/reject``
  /// policy. `rejected` says whether it was dropped.
  case reentrant(input: String, during: String, rejected: Bool)
  /// An input arrived after the store stopped accepting inputs (shut down, or released while a
  /// command still held a handle), and was dropped. `origin` names the effect it came from, if
  /// it came from one.
  case lateInput(_ input: String, origin: String?)
  /// An asynchronous effect failed with an error other than cancellation: a store's command or
  /// ``Store/run(_:id:cancelInFlight:stream:)`` stream, a reactor's mutation stream, a feedback
  /// loop's effect. `effect` is the name it was started with.
  case effectFailed(effect: String, error: any Error)
  /// A feedback loop does not settle: its feedbacks sent `events` events in a row on its
  /// processing thread, each in response to a state their previous event produced, with no
  /// event from outside between. The following ones go through the loop's scheduler, one per
  /// millisecond, so that its caller gets control back (see `FeedbackLoop.settleLimit`).
  case loopDidNotSettle(events: Int)
  /// Reducing `input` twice from the same state gave two different states: the reducer (a
  /// store's reducer, a reactor's `reduce`, a feedback loop's reducer) read something besides the
  /// state and the input — the clock, a random number, global state. Reported only while the
  /// ``PurityCheck`` is on. `difference` has the lines of the two states' dumps that differ, as
  /// `- line` (the first reduction, which the store keeps) and `+ line` (the second).
  case impureReducer(input: String, difference: String)

  /// A description naming the inputs involved: one line, but for an impure reducer's, which
  /// adds the lines of the states that differ.
  public var description: String {
    switch self {
    case .reentrant(let input, let during, let rejected):
      "Reentrant send of \(input) while processing \(during)"
        + (rejected ? ": rejected (ReentrancyPolicy.reject)" : ": queued (ReentrancyPolicy.report)")
    case .lateInput(let input, let origin):
      "Input \(input) arrived after the store stopped accepting inputs and was dropped"
        + (origin.map { " (sent by effect \"\($0)\")" } ?? "")
    case .effectFailed(let effect, let error):
      "Effect \"\(effect)\" failed: \(error)"
    case .loopDidNotSettle(let events):
      "A feedback loop did not settle: its feedbacks sent \(events) events in a row in response "
        + "to its own states; the next ones go through its scheduler, one per millisecond"
    case .impureReducer(let input, let difference):
      "The reducer is not pure: reducing \(input) twice from the same state gave two different "
        + "states\n\(difference)"
    }
  }
}
