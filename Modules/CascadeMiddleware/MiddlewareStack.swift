import CascadeStreams

/// The middlewares of one architecture, run in order.
///
/// Architectures (Store, Reactor, Feedback) hold one and call it around each reduction; custom
/// architectures can too.
///
/// ```swift
/// let stack = MiddlewareStack<Action, State>([logging, analytics])
/// guard let action = stack.intercept(action, state: state) else { return }  // blocked
/// reduce(&state, action)
/// stack.process(MiddlewareRecord(input: action, state: state, sequence: n, time: now,
///                                dispatcher: dispatcher))
/// ```
public struct MiddlewareStack<Input: Sendable, State: Sendable>: Sendable {
  /// The middlewares, in the order they run.
  public let middlewares: [any Middleware<Input, State>]
  /// Whether any middleware wants ``MiddlewareRecord/stateBefore``.
  public let wantsStateBefore: Bool

  /// Creates a stack running `middlewares` in order.
  public init(_ middlewares: [any Middleware<Input, State>] = []) {
    self.middlewares = middlewares
    wantsStateBefore = middlewares.contains { $0.wantsStateBefore }
  }

  /// Whether the stack has no middleware (the engine then skips the bookkeeping).
  @inlinable
  public var isEmpty: Bool { middlewares.isEmpty }

  /// Passes `input` through every middleware's ``Middleware/intercept(_:state:)`` in order;
  /// `nil` if one blocked it.
  public func intercept(_ input: Input, state: State) -> Input? {
    var current = input
    for middleware in middlewares {
      guard let next = middleware.intercept(current, state: state) else { return nil }
      current = next
    }
    return current
  }

  /// Hands `record` to every middleware's ``Middleware/process(_:)`` in order.
  public func process(_ record: MiddlewareRecord<Input, State>) {
    for middleware in middlewares { middleware.process(record) }
  }
}
