public import CascadeStore
import CascadeStreams

/// Lets middlewares written for a loop's events and state sit on its store, whose inputs are
/// events tagged with their effect.
@usableFromInline
struct FeedbackMiddleware<Event: Sendable, State: Sendable>: Middleware {
  @usableFromInline let stack: MiddlewareStack<Event, State>

  @usableFromInline
  init(_ stack: MiddlewareStack<Event, State>) {
    self.stack = stack
  }

  @usableFromInline var wantsStateBefore: Bool { stack.wantsStateBefore }

  @usableFromInline var interceptsInputs: Bool { stack.interceptsInputs }

  @usableFromInline func intercept(
    _ input: FeedbackInput<Event>,
    state: State
  ) -> FeedbackInput<Event>? {
    // An event of a cancelled effect is dropped before the middlewares see it.
    if let token = input.token, token.isCancelled { return nil }
    return stack.intercept(input.event, state: state).map {
      FeedbackInput(event: $0, token: input.token)
    }
  }

  @usableFromInline func process(_ record: MiddlewareRecord<FeedbackInput<Event>, State>) {
    let dispatcher = record.dispatcher
    stack.process(
      MiddlewareRecord(
        input: record.input.event,
        stateBefore: record.stateBefore,
        state: record.state,
        sequence: record.sequence,
        time: record.time,
        dispatcher: MiddlewareDispatcher {
          dispatcher.dispatch(FeedbackInput(event: $0, token: nil))
        }
      )
    )
  }
}
