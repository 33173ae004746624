import CascadeFeedback
import CascadeStreams

/// W1's Feedback column: the counter as a feedback loop with no feedback, driven from outside.
///
/// N events are sent with `loop.send(.increment)` from one thread; the loop reduces them in place
/// (`reduceInPlace`, W1's reducer) and delivers every state to one subscriber of `loop.states`,
/// on `ImmediateScheduler.instance` (on the sending thread, like the Store column's
/// `.synchronous` delivery).
extension W1 {
  static let feedbackCell = Cell(
    workload,
    .feedback,
    expected: expected,
    goal: .all([.minimumRate(5e6), .maximumRatio(2, to: .plain)]),
    run: runFeedback
  )

  static func runFeedback(n: Int) throws -> Checksum {
    let tally = Tally()
    let loop = FeedbackLoop<State, Action>(
      initialState: State(),
      reduceInPlace: makeReducer(),
      feedbacks: [],
      scheduler: ImmediateScheduler.instance
    )
    let subscription = loop.states.subscribe(
      onNext: opaque { @Sendable (state: State) in tally.record(state.count) }
    )
    Operations.begin()
    dispatch(n: n, to: loop)
    Operations.end()
    let count = loop.currentState.count
    try check(count == n, "final count \(count), expected \(n)")
    subscription.dispose()
    // Released here, the loop ends.
    return tally.checksum
  }

  @inline(never)
  static func dispatch(n: Int, to loop: FeedbackLoop<State, Action>) {
    for _ in 0..<n { loop.send(.increment) }
  }
}
