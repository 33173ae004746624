import CascadeFeedback
import CascadeStreams

/// W4's Feedback column: round trips through a feedback's asynchronous effect.
///
/// A `.start` event counts a request in the state; a whole-stream feedback watches the request
/// count and starts one effect per new request (`flatMap` into `Observable.run`, a task), which
/// sends `.done` back; the round trip ends when `.done` is reduced. One subscriber of
/// `loop.states` (on `ImmediateScheduler.instance`) reports the done count to the driver's
/// ``Waiter``, as in the other columns. (The keyed-requests form would diff the whole pending
/// set on every state, which a burst of N makes quadratic.)
extension W4 {
  struct LoopState: Sendable {
    var requested = 0
    var done = 0
  }

  enum LoopEvent: Sendable {
    case start
    case done
  }

  static let feedbackCells = [
    Cell(sequential, .feedback, expected: expected, goal: .minimumRate(50e3)) { n in
      try runBlocking { try await feedbackSequential(n) }
    },
    Cell(burst, .feedback, expected: expected, goal: .minimumRate(50e3)) { n in
      try runBlocking { try await feedbackBurst(n) }
    },
  ]

  static func makeLoop() -> FeedbackLoop<LoopState, LoopEvent> {
    FeedbackLoop(
      initialState: LoopState(),
      reduceInPlace: { state, event in
        switch event {
        case .start: state.requested &+= 1
        case .done: state.done &+= 1
        }
      },
      feedbacks: [
        Feedback { states in
          states.map(\.requested).distinctUntilChanged().filter { $0 > 0 }
            .flatMap { _ in
              Observable<LoopEvent, Never>.run { observer in observer.onNext(.done) }
            }
        }
      ],
      scheduler: ImmediateScheduler.instance
    )
  }

  static func feedbackSequential(_ n: Int) async throws -> Checksum {
    let (loop, subscription, tally, waiter) = makeObservedLoop()
    Operations.begin()
    for done in 1..<(n + 1) {
      await waiter.wait(until: done) { loop.send(.start) }
    }
    Operations.end()
    return try await finish(loop, subscription, tally, n: n)
  }

  static func feedbackBurst(_ n: Int) async throws -> Checksum {
    let (loop, subscription, tally, waiter) = makeObservedLoop()
    Operations.begin()
    await waiter.wait(until: n) {
      for _ in 0..<n { loop.send(.start) }
    }
    Operations.end()
    return try await finish(loop, subscription, tally, n: n)
  }

  static func makeObservedLoop() -> (
    FeedbackLoop<LoopState, LoopEvent>, any Disposable, Tally, Waiter
  ) {
    let tally = Tally()
    let waiter = Waiter()
    let loop = makeLoop()
    let subscription = loop.states
      .map(opaque { @Sendable (state: LoopState) in state.done })
      .distinctUntilChanged()
      .subscribe(
        onNext: opaque { @Sendable (value: Int) in
          tally.record(value)
          waiter.reached(value)
        }
      )
    return (loop, subscription, tally, waiter)
  }

  static func finish(
    _ loop: FeedbackLoop<LoopState, LoopEvent>,
    _ subscription: any Disposable,
    _ tally: Tally,
    n: Int
  ) async throws -> Checksum {
    await loop.settle()
    let done = loop.currentState.done
    try check(done == n, "\(done) results reduced, expected \(n)")
    subscription.dispose()
    await loop.shutdown()
    return tally.checksum
  }
}
