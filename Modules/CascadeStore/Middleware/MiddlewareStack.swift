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
///
/// The architecture hands the stack its ``MiddlewareHost`` once, when it is made
/// (``attach(to:)``), or attaches the middlewares as it makes the stack
/// (``init(attaching:to:)``), which then leaves out the processing of those that no longer
/// process inputs once attached (``Middleware/processesInputs``).
public struct MiddlewareStack<Input: Sendable, State: Sendable>: Sendable {
  /// The middlewares, in the order they run.
  public let middlewares: [any Middleware<Input, State>]
  /// Whether any middleware that processes inputs (``Middleware/processesInputs``) wants
  /// ``MiddlewareRecord/stateBefore``: only those see a record.
  public let wantsStateBefore: Bool
  /// Each middleware's `intercept`, opened once: calling through an `any Middleware<…>` per input
  /// would look up the existential's metadata every time.
  @usableFromInline let interceptors: [@Sendable (Input, State) -> Input?]
  /// The `process` of each middleware that processes inputs (``Middleware/processesInputs``),
  /// opened once.
  @usableFromInline let processors: [@Sendable (MiddlewareRecord<Input, State>) -> Void]
  /// The middlewares' tracers (``Middleware/tracer``), as one: `nil` if none has one.
  public let tracer: (any StoreTracer)?

  /// Creates a stack running `middlewares` in order.
  ///
  /// It reads whether each processes inputs (``Middleware/processesInputs``) now: before
  /// ``attach(to:)``, a middleware that would stop processing once attached is called
  /// regardless (see ``init(attaching:to:)``).
  public init(_ middlewares: [any Middleware<Input, State>] = []) {
    self.middlewares = middlewares
    let processing = middlewares.filter { $0.processesInputs }
    wantsStateBefore = processing.contains { $0.wantsStateBefore }
    interceptors = middlewares.filter(\.interceptsInputs).map { Self.interceptor(of: $0) }
    processors = processing.map { Self.processor(of: $0) }
    // A closure, not `\.tracer`: a key path into a generic existential is made at run time, an
    // allocation for every architecture made (the allocation gate, W5 Feedback).
    let tracers = middlewares.compactMap { $0.tracer }
    tracer = tracers.count > 1 ? StoreTracers(tracers) : tracers.first
  }

  private static func interceptor<M: Middleware>(
    of middleware: M
  ) -> @Sendable (Input, State) -> Input? where M.Input == Input, M.State == State {
    { input, state in middleware.intercept(input, state: state) }
  }

  private static func processor<M: Middleware>(
    of middleware: M
  ) -> @Sendable (MiddlewareRecord<Input, State>) -> Void
  where M.Input == Input, M.State == State {
    { record in middleware.process(record) }
  }

  /// Attaches `middlewares` to `host` (``Middleware/attached(to:)``), then makes the stack
  /// running them in order: the processing of a middleware that no longer processes inputs once
  /// attached (``Middleware/processesInputs``: one that takes them from the architecture's log)
  /// is left out.
  ///
  /// The architecture's host must answer while it is being made: its state before the first
  /// input, and its log.
  ///
  /// A middleware made of others (a reactor's, on its store) is made again as it is attached,
  /// so that its own stack leaves them out too.
  public init(
    attaching middlewares: [any Middleware<Input, State>],
    to host: MiddlewareHost<Input, State>
  ) {
    let attached = middlewares.map { middleware -> any Middleware<Input, State> in
      if let remade = middleware as? any RemadeOnAttach<Input, State> {
        return remade.attachedAndRemade(to: host)
      }
      middleware.attached(to: host)
      return middleware
    }
    self.init(attached)
  }

  /// Hands `host` to every middleware (``Middleware/attached(to:)``): once, when the
  /// architecture running the stack is made, before its first input.
  public func attach(to host: MiddlewareHost<Input, State>) {
    for middleware in middlewares { middleware.attached(to: host) }
  }

  /// Whether any middleware processes inputs (``Middleware/processesInputs``): without one, an
  /// architecture makes no ``MiddlewareRecord``.
  @inlinable
  public var processesInputs: Bool { !processors.isEmpty }

  /// Whether any middleware intercepts inputs (``Middleware/interceptsInputs``).
  @inlinable
  public var interceptsInputs: Bool { !interceptors.isEmpty }

  /// Whether the stack has no middleware (the engine then skips the bookkeeping).
  @inlinable
  public var isEmpty: Bool { middlewares.isEmpty }

  /// Passes `input` through every middleware's ``Middleware/intercept(_:state:)`` in order;
  /// `nil` if one blocked it.
  @inlinable
  public func intercept(_ input: Input, state: State) -> Input? {
    var current = input
    for interceptor in interceptors {
      guard let next = interceptor(current, state) else { return nil }
      current = next
    }
    return current
  }

  /// Hands `record` to every middleware's ``Middleware/process(_:)`` in order.
  @inlinable
  public func process(_ record: MiddlewareRecord<Input, State>) {
    for processor in processors { processor(record) }
  }
}

/// A middleware that lifts others onto its architecture, made again as it is attached
/// (``MiddlewareStack/init(attaching:to:)``), with what it learns then.
///
/// - A reactor's middlewares sit on its store as one such middleware. Its stack is made again
///   attaching them, and so leaves out the processing of those that no longer process inputs
///   once attached (``Middleware/processesInputs``), as the architecture's stack does for its
///   own: made before they were attached, it called the live inspector's middleware after every
///   mutation though it takes its inputs from the log.
/// - It, and a pulled-back middleware (``Middleware/pullback(state:input:embed:)``), map the
///   architecture's dispatcher (``MiddlewareHost/dispatcher``) once, for the records they hand
///   on, instead of each record's.
package protocol RemadeOnAttach<Input, State>: Middleware {
  /// Attaches this middleware's middlewares to `host` and returns it made again with them: what
  /// the architecture runs instead of it.
  func attachedAndRemade(to host: MiddlewareHost<Input, State>) -> any Middleware<Input, State>
}
