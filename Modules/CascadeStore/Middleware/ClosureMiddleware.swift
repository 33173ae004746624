/// A middleware built from closures, for one-off middlewares that don't deserve a type.
///
/// Give the closures you need: `process` alone (a trailing closure), `intercept` alone, or both.
/// Without `intercept` every input goes through unchanged.
///
/// ```swift
/// let analytics = ClosureMiddleware<Action, State> { record in
///   if case .purchase(let item) = record.input { tracker.track("purchase", item.id) }
/// }
///
/// let readOnly = ClosureMiddleware<Action, State>(intercept: { action, state in
///   state.isReadOnly && action.isEdit ? nil : action
/// })
///
/// let audit = ClosureMiddleware<Action, State>(
///   wantsStateBefore: true,
///   intercept: { action, _ in action.normalized },
///   process: { record in auditLog.append(record.stateBefore, record.state) }
/// )
/// ```
///
/// The closures follow the ``Middleware`` contract: they run on the thread reducing the input,
/// never under a lock, and must not block.
public struct ClosureMiddleware<Input: Sendable, State: Sendable>: Middleware {
  /// Whether ``MiddlewareRecord/stateBefore`` should be filled in.
  public let wantsStateBefore: Bool
  private let interceptBody: @Sendable (Input, State) -> Input?
  private let processBody: @Sendable (MiddlewareRecord<Input, State>) -> Void
  /// Whether it was given an `intercept` closure.
  public let interceptsInputs: Bool

  /// Creates a middleware from closures.
  ///
  /// - Parameters:
  ///   - wantsStateBefore: Whether ``MiddlewareRecord/stateBefore`` should be filled in.
  ///   - intercept: Runs before an input is reduced, with the state before it; returns the input
  ///     to reduce, or `nil` to block it.
  ///   - process: Runs after an input was reduced.
  public init(
    wantsStateBefore: Bool = false,
    intercept: @escaping @Sendable (Input, State) -> Input?,
    process: @escaping @Sendable (MiddlewareRecord<Input, State>) -> Void
  ) {
    self.wantsStateBefore = wantsStateBefore
    self.interceptBody = intercept
    self.processBody = process
    interceptsInputs = true
  }

  /// Creates a middleware that only observes: it sees every processed input, and the engine
  /// skips interception for it.
  ///
  /// - Parameters:
  ///   - wantsStateBefore: Whether ``MiddlewareRecord/stateBefore`` should be filled in.
  ///   - process: Runs after an input was reduced.
  public init(
    wantsStateBefore: Bool = false,
    process: @escaping @Sendable (MiddlewareRecord<Input, State>) -> Void
  ) {
    self.wantsStateBefore = wantsStateBefore
    self.interceptBody = { input, _ in input }
    self.processBody = process
    interceptsInputs = false
  }

  /// Creates a middleware that only intercepts.
  ///
  /// - Parameters:
  ///   - wantsStateBefore: Whether ``MiddlewareRecord/stateBefore`` should be filled in.
  ///   - intercept: Runs before an input is reduced, with the state before it; returns the input
  ///     to reduce, or `nil` to block it.
  public init(
    wantsStateBefore: Bool = false,
    intercept: @escaping @Sendable (Input, State) -> Input?
  ) {
    self.init(wantsStateBefore: wantsStateBefore, intercept: intercept, process: { _ in })
  }

  /// Calls the `intercept` closure.
  public func intercept(_ input: Input, state: State) -> Input? {
    interceptBody(input, state)
  }

  /// Calls the `process` closure.
  public func process(_ record: MiddlewareRecord<Input, State>) {
    processBody(record)
  }
}
