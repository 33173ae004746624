public import AppSupport
public import CascadeFeedback
import CascadeStore
import CascadeStreams

/// The task list on a `FeedbackLoop`: the shared reducer, and a feedback that writes the oldest
/// pending write; when it has finished, the next one becomes the oldest and is written.
public final class FeedbackTodo: ContainerService {
  /// The intents the service takes.
  public typealias Intent = TodoIntent
  /// The service's state.
  public typealias State = TodoState

  let loop: FeedbackLoop<TodoState, TodoEvent>

  /// Creates the service on `database`, with the state it holds now.
  public convenience init(database: TodoDatabase) {
    self.init(writes: database, initialState: TodoState(loadingFrom: database))
  }

  /// Creates the service writing to `writes`, starting from `initialState`, with `middlewares`
  /// on its loop (a session recorder); `reacting` `false`: without its feedback, for a replay
  /// from a state (no feedback runs in a replay, and a loop started from a state with pending
  /// writes would write them before).
  init(
    writes: any TodoWrites,
    initialState: TodoState,
    reacting: Bool = true,
    middlewares: [any Middleware<TodoEvent, TodoState>] = []
  ) {
    let write = Feedback<TodoState, TodoEvent>(skippingRepeated: { $0.pendingWrites.first }) {
      write,
      send in
      send(.written(await writes.performing(write)))
    }
    loop = FeedbackLoop(
      initialState: initialState,
      reduceInPlace: { state, event in state.reduce(event) },
      feedbacks: reacting ? [write] : [],
      scheduler: ImmediateScheduler.instance,
      middlewares: middlewares
    )
  }

  /// The loop.
  public var container: FeedbackLoop<TodoState, TodoEvent> { loop }
}
