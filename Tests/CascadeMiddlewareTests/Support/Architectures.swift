import CascadeFeedback
import CascadeMiddleware
import CascadeReactor
import CascadeStore
import CascadeStreams
import CascadeTesting

/// A Codable input for the cross-architecture tests.
enum Op: Codable, Sendable, Equatable {
  case add(Int)
  case multiply(Int)
  case reset
  case note(String)
}

/// The state the ops act on.
struct Tally: Sendable, Equatable, Codable {
  var value = 0
  var notes: [String] = []
  var steps = 0

  mutating func apply(_ op: Op) {
    steps += 1
    switch op {
    case .add(let amount): value += amount
    case .multiply(let factor): value *= factor
    case .reset: value = 0
    case .note(let text): notes.append(text)
    }
  }
}

/// The three architectures, for parameterised tests.
enum Arch: String, CaseIterable, Sendable {
  case store, reactor, feedback
}

/// A reactor over ops: each action is its own mutation.
final class TallyReactor: Reactor {
  typealias Action = Op
  typealias Mutation = Op
  typealias State = Tally

  let initialState = Tally()
  let runtime = ReactorRuntime<Op, Op, Tally>()
  let attached: [any Middleware<Op, Tally>]

  init(middlewares: [any Middleware<Op, Tally>]) {
    attached = middlewares
  }

  var scheduler: any Scheduler { ImmediateScheduler.instance }
  var middlewares: [any Middleware<Op, Tally>] { attached }

  func reduce(into state: inout Tally, mutation: Op) { state.apply(mutation) }
}

/// One running architecture over ops, seen through `send` and `state`.
struct Running: Sendable {
  let send: @Sendable (Op) -> Void
  let state: @Sendable () -> Tally
  /// Keeps the architecture alive as long as this value.
  let owner: any Sendable

  /// Builds `arch` with `middlewares`, processing on the sending thread.
  static func make(
    _ arch: Arch,
    middlewares: [any Middleware<Op, Tally>] = [],
    scheduler: TestScheduler = TestScheduler()
  ) -> Running {
    switch arch {
    case .store:
      let store = Store(
        initialState: Tally(),
        middlewares: middlewares,
        scheduler: scheduler
      ) { state, op in state.apply(op) }
      return Running(send: store.send, state: { store.state }, owner: store)
    case .reactor:
      let reactor = TallyReactor(middlewares: middlewares)
      return Running(send: reactor.send, state: { reactor.currentState }, owner: reactor)
    case .feedback:
      let loop = FeedbackLoop<Tally, Op>(
        initialState: Tally(),
        reduceInPlace: { state, op in state.apply(op) },
        feedbacks: [],
        // Immediate: a test scheduler would hold every state delivery as pending work.
        scheduler: ImmediateScheduler.instance,
        middlewares: middlewares
      )
      return Running(send: loop.send, state: { loop.currentState }, owner: loop)
    }
  }
}
