import CascadeFeedback
import CascadeStreams

/// W3's Feedback column: the 10,000 items in a feedback loop's state, toggled in place.
///
/// A loop with no feedback, driven from outside as W1's: N `loop.send(.toggle(i))` from one
/// thread, reduced in place with W3's reducer (`reduceInPlace`, which also watches the array's
/// buffer), delivered on `ImmediateScheduler.instance` to one subscriber, `loop.states.map {
/// $0.doneCount }`, which records the done count. The same probes as the Store column: the
/// buffer moves (a copy per action moves it) and the peak memory of the toggles.
extension W3 {
  static let feedbackCell = Cell(
    workload,
    .feedback,
    expected: expected,
    measuresMemory: true,
    goal: .all([.minimumRate(5e6), flatMemory, .maximumRatio(2, to: .plain)]),
    notes: notes,
    outcome: runFeedback
  )

  static func runFeedback(n: Int) throws -> Outcome {
    let tally = Tally()
    let watch = BufferWatch()
    let loop = FeedbackLoop<State, Action>(
      initialState: makeState(),
      reduceInPlace: makeReducer(watch),
      feedbacks: [],
      scheduler: ImmediateScheduler.instance
    )
    let subscription =
      loop.states
      .map(opaque { @Sendable (state: State) in state.doneCount })
      .subscribe(onNext: opaque { @Sendable (value: Int) in tally.record(value) })
    watch.start(at: address(of: loop.currentState.items))
    MemoryProbe.operationsBegin(stateBytes: stateBytes)
    Operations.begin()
    toggle(n: n, loop)
    Operations.end()
    try checkFinal(loop.currentState, tally)
    subscription.dispose()
    return Outcome(checksum: tally.checksum, counters: [reallocations: watch.moves])
  }

  @inline(never)
  static func toggle(n: Int, _ loop: FeedbackLoop<State, Action>) {
    var random = SplitMix64(seed: seed)
    for _ in 0..<n { loop.send(.toggle(random.index(below: count))) }
  }
}
