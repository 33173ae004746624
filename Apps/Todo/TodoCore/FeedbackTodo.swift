public import AppSupport
import CascadeFeedback
public import CascadeStreams

/// The task list on a `FeedbackLoop`: the shared reducer, and a feedback that writes the oldest
/// pending write; when it has finished, the next one becomes the oldest and is written.
public final class FeedbackTodo: AppService {
  /// The intents the service takes.
  public typealias Intent = TodoIntent
  /// The service's state.
  public typealias State = TodoState

  private let loop: FeedbackLoop<TodoState, TodoEvent>

  /// Creates the service on `database`, with the state it holds now.
  public init(database: TodoDatabase) {
    loop = FeedbackLoop(
      initial: TodoState(loadingFrom: database),
      reduceInPlace: { state, event in state.reduce(event) },
      feedbacks: [
        Feedback(skippingRepeated: { $0.pendingWrites.first }) { write, send in
          send(.written(await database.perform(write)))
        }
      ],
      scheduler: ImmediateScheduler.instance
    )
  }

  /// ``Architecture/feedback``.
  public var architecture: Architecture { .feedback }

  /// The state now.
  public var currentState: TodoState { loop.currentState }

  /// The current state, then every change.
  public var states: Observable<TodoState, Never> { loop.states }

  /// Sends an intent as an event of the loop.
  public func send(_ intent: TodoIntent) {
    loop.send(.intent(intent))
  }
}
