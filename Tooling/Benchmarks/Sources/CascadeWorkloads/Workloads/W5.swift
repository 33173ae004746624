import CascadeFeedback
import CascadeStreams

/// W5, feedback loop: a state-driven effect emits an increment while `count < N`; the time to
/// reach N.
///
/// - plain: a trampoline — reduce, ask the feedback closure whether to go on, loop — with the
///   same closures, no library.
/// - Feedback: a `FeedbackLoop` whose one feedback is the whole-stream form,
///   `states.filter { $0 < N }.map { _ in .increment }`, on `ImmediateScheduler.instance`: every
///   increment is emitted synchronously while the state is delivered, queued, and reduced next.
enum W5 {
  static let workload = Workload(id: "W5", name: "feedback loop", n: 100_000, quickN: 5_000)

  static func expected(_ n: Int) -> Checksum {
    Checksum(count: 1, sum: n, last: n)
  }

  static let cells = [
    Cell(workload, .plain, expected: expected, run: runPlain),
    Cell(
      workload,
      .feedback,
      expected: expected,
      goal: .all([.minimumRate(5e6), .maximumRatio(20, to: .plain)]),
      run: runFeedback
    ),
  ]

  static func makeReducer() -> @Sendable (inout Int, Int) -> Void {
    let reducer: @Sendable (inout Int, Int) -> Void = { count, increment in count &+= increment }
    return opaque(reducer)
  }

  static func runPlain(n: Int) throws -> Checksum {
    let reduce = makeReducer()
    let goOn = opaque { @Sendable (count: Int) in count < n }
    Operations.begin()
    var count = 0
    var pending = goOn(count) ? 1 : 0
    while pending > 0 {
      pending -= 1
      reduce(&count, 1)
      if goOn(count) { pending += 1 }
    }
    Operations.end()
    try check(count == n, "final count \(count), expected \(n)")
    let tally = Tally()
    tally.record(count)
    return tally.checksum
  }

  static func runFeedback(n: Int) throws -> Checksum {
    let goOn = opaque { @Sendable (count: Int) in count < n }
    // The loop runs to N while it is built: its feedback emits synchronously on the immediate
    // scheduler. Building it is part of the measured operations.
    Operations.begin()
    let loop = FeedbackLoop<Int, Int>(
      initialState: 0,
      reduceInPlace: makeReducer(),
      feedbacks: [
        Feedback { states in states.filter(goOn).map { _ in 1 }.asObservable() }
      ],
      scheduler: ImmediateScheduler.instance
    )
    Operations.end()
    let count = loop.currentState
    try check(count == n, "final count \(count), expected \(n)")
    // Released here, the loop ends.
    let tally = Tally()
    tally.record(count)
    return tally.checksum
  }
}
