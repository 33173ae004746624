public import CascadeStore
import CascadeStreams

/// Lets middlewares written for a reactor's actions and state sit on its store, whose inputs are
/// actions and mutations.
///
/// Actions are intercepted (blocked or transformed) before `mutate(action:)`; each mutation that
/// an action produced is processed with that action, the mutation, and the resulting state.
/// Mutations merged in by `transform(mutation:)` have no action and are not shown.
///
/// **Specialized per input.** The store calls it through `any Middleware`, so its
/// ``process(_:)`` and ``intercept(_:state:)`` run as this generic type's witnesses, compiled for
/// any types: each record they made looked up its generic type at run time, in the runtime's
/// metadata caches (`cascade-inspector-bench live-rpg 100000 reactor`, under perf: about 7 % of
/// the reactor's time). They call ``Calls`` instead, made in ``init(_:)``, which is inlined into
/// the reactor's code (`ReactorCore.build`): specialized for the reactor's types.
@usableFromInline
struct ReactorMiddleware<Action: Sendable, Mutation: Sendable, State: Sendable>: RemadeOnAttach {
  @usableFromInline typealias Input = ReactorInput<Action, Mutation>

  @usableFromInline let stack: MiddlewareStack<Action, State>
  @usableFromInline let calls: Calls
  /// The dispatcher of the records the reactor's middlewares see, mapped once from the
  /// architecture's (``MiddlewareHost/dispatcher``) as the adapter is made again; `nil` before,
  /// or on an architecture without one: then each record's is mapped.
  @usableFromInline let dispatcher: MiddlewareDispatcher<Action>?

  /// The adapter's work per input, made in code specialized for the reactor's types.
  @usableFromInline
  struct Calls: Sendable {
    @usableFromInline let intercept:
      @Sendable (MiddlewareStack<Action, State>, Input, State) -> Input?
    @usableFromInline let process:
      @Sendable (
        MiddlewareStack<Action, State>, MiddlewareRecord<Input, State>,
        MiddlewareDispatcher<Action>?
      ) -> Void

    @inlinable
    init(
      intercept: @escaping @Sendable (MiddlewareStack<Action, State>, Input, State) -> Input?,
      process:
        @escaping @Sendable (
          MiddlewareStack<Action, State>, MiddlewareRecord<Input, State>,
          MiddlewareDispatcher<Action>?
        ) -> Void
    ) {
      self.intercept = intercept
      self.process = process
    }
  }

  /// The adapter of `stack`; inlined where the reactor is made, so that its ``Calls`` are
  /// specialized.
  @inlinable
  init(_ stack: MiddlewareStack<Action, State>) {
    self.init(
      stack,
      calls: Calls(
        intercept: { stack, input, state in Self.intercept(input, state: state, through: stack) },
        process: { stack, record, dispatcher in
          Self.process(record, through: stack, dispatcher: dispatcher)
        }
      ),
      dispatcher: nil
    )
  }

  @usableFromInline
  init(
    _ stack: MiddlewareStack<Action, State>,
    calls: Calls,
    dispatcher: MiddlewareDispatcher<Action>?
  ) {
    self.stack = stack
    self.calls = calls
    self.dispatcher = dispatcher
  }

  @usableFromInline var wantsStateBefore: Bool { stack.wantsStateBefore }

  @usableFromInline var interceptsInputs: Bool { stack.interceptsInputs }

  /// Whether one of the reactor's middlewares still processes inputs once attached.
  ///
  /// Read after ``attached(to:)``. Made again as it is attached (``attachedAndRemade(to:)``),
  /// ``stack`` calls only those.
  @usableFromInline var processesInputs: Bool {
    stack.middlewares.contains { $0.processesInputs }
  }

  @usableFromInline var tracer: (any StoreTracer)? { stack.tracer }

  /// The reactor's middlewares see, in the log as in ``process(_:)``, each mutation an action
  /// produced, as the action with the mutation.
  @usableFromInline func attached(to host: MiddlewareHost<Input, State>) {
    stack.attach(to: Self.actions(of: host))
  }

  /// Attaches the reactor's middlewares and makes the adapter again with them.
  ///
  /// As ``attached(to:)``, then a stack made attaching them: it leaves out the processing of
  /// those that take their inputs from the log (``Middleware/processesInputs``). The ``Calls``
  /// are kept: made here, in code compiled for any types, they would not be specialized.
  @usableFromInline func attachedAndRemade(
    to host: MiddlewareHost<Input, State>
  ) -> any Middleware<Input, State> {
    let actions = Self.actions(of: host)
    return ReactorMiddleware(
      MiddlewareStack(attaching: stack.middlewares, to: actions),
      calls: calls,
      dispatcher: actions.dispatcher
    )
  }

  /// `host` as the reactor's middlewares see it: each mutation an action produced, as the
  /// action with the mutation.
  @usableFromInline static func actions(
    of host: MiddlewareHost<Input, State>
  ) -> MiddlewareHost<Action, State> {
    host.mapped(
      state: \State.self,
      input: { input in
        guard case .mutation(let mutation, let cause?) = input else { return nil }
        return (cause, mutation)
      },
      embed: { .action($0) }
    )
  }

  @usableFromInline func intercept(_ input: Input, state: State) -> Input? {
    calls.intercept(stack, input, state)
  }

  @usableFromInline func process(_ record: MiddlewareRecord<Input, State>) {
    calls.process(stack, record, dispatcher)
  }

  /// ``intercept(_:state:)``: an action through the reactor's middlewares; a mutation as it is.
  @inlinable
  static func intercept(
    _ input: Input,
    state: State,
    through stack: MiddlewareStack<Action, State>
  ) -> Input? {
    guard case .action(let action) = input else { return input }
    return stack.intercept(action, state: state).map { .action($0) }
  }

  /// ``process(_:)``: a mutation an action produced, as the action with the mutation; nothing
  /// else.
  ///
  /// Its dispatcher is `dispatcher`, the architecture's mapped once, or else the record's, mapped
  /// now.
  @inlinable
  static func process(
    _ record: MiddlewareRecord<Input, State>,
    through stack: MiddlewareStack<Action, State>,
    dispatcher mapped: MiddlewareDispatcher<Action>?
  ) {
    guard case .mutation(let mutation, let cause?) = record.input else { return }
    let dispatcher = mapped ?? record.dispatcher.embedding { .action($0) }
    stack.process(
      MiddlewareRecord(
        input: cause,
        mutation: mutation,
        stateBefore: record.stateBefore,
        state: record.state,
        sequence: record.sequence,
        time: record.time,
        dispatcher: dispatcher
      )
    )
  }
}
