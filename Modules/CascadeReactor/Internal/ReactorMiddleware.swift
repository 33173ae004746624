public import CascadeStore
import CascadeStreams

/// Lets middlewares written for a reactor's actions and state sit on its store, whose inputs are
/// actions and mutations.
///
/// Actions are intercepted (blocked or transformed) before `mutate(action:)`; each mutation that
/// an action produced is processed with that action, the mutation, and the resulting state.
/// Mutations merged in by `transform(mutation:)` have no action and are not shown.
@usableFromInline
struct ReactorMiddleware<Action: Sendable, Mutation: Sendable, State: Sendable>: Middleware {
  @usableFromInline let stack: MiddlewareStack<Action, State>

  @usableFromInline
  init(_ stack: MiddlewareStack<Action, State>) {
    self.stack = stack
  }

  @usableFromInline var wantsStateBefore: Bool { stack.wantsStateBefore }

  @usableFromInline var interceptsInputs: Bool { stack.interceptsInputs }

  /// Whether one of the reactor's middlewares still processes inputs once attached (read after
  /// ``attached(to:)``); those that do not are still called by ``stack``, made before.
  @usableFromInline var processesInputs: Bool {
    stack.middlewares.contains { $0.processesInputs }
  }

  @usableFromInline var tracer: (any StoreTracer)? { stack.tracer }

  /// The reactor's middlewares see, in the log as in ``process(_:)``, each mutation an action
  /// produced, as the action with the mutation.
  @usableFromInline func attached(to host: MiddlewareHost<ReactorInput<Action, Mutation>, State>) {
    stack.attach(
      to: host.mapped(state: \State.self) { input in
        guard case .mutation(let mutation, let cause?) = input else { return nil }
        return (cause, mutation)
      }
    )
  }

  @usableFromInline func intercept(
    _ input: ReactorInput<Action, Mutation>,
    state: State
  ) -> ReactorInput<Action, Mutation>? {
    guard case .action(let action) = input else { return input }
    return stack.intercept(action, state: state).map { .action($0) }
  }

  @usableFromInline func process(_ record: MiddlewareRecord<ReactorInput<Action, Mutation>, State>)
  {
    guard case .mutation(let mutation, let cause?) = record.input else { return }
    let dispatcher = record.dispatcher
    stack.process(
      MiddlewareRecord(
        input: cause,
        mutation: mutation,
        stateBefore: record.stateBefore,
        state: record.state,
        sequence: record.sequence,
        time: record.time,
        dispatcher: MiddlewareDispatcher { dispatcher.dispatch(.action($0)) }
      )
    )
  }
}
