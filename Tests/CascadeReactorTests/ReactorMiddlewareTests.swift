import CascadeMiddleware
import CascadeReactor
import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// The middleware values of CascadeMiddleware on a reactor: they see each action with each of
/// its mutations and the state after it, and can block or rewrite actions before `mutate`.
@Suite(.checksResources)
struct ReactorMiddlewareTests {
  /// Records "action → mutation → state" for each mutation an action produced.
  struct Recording: Middleware {
    let log: Recorder<String>

    func process(_ record: MiddlewareRecord<CartReactor.Action, CartReactor.State>) {
      let mutation = record.mutation.map { "\($0)" } ?? "-"
      log.append("\(record.input) → \(mutation) → \(record.state.items)")
    }
  }

  /// Reads each mutation typed: the items it appended.
  struct TypedRecording: Middleware {
    let appended: Recorder<String>

    func process(_ record: MiddlewareRecord<CartReactor.Action, CartReactor.State>) {
      guard case .append(let item)? = record.mutation(as: CartReactor.Mutation.self) else { return }
      appended.append(item)
    }
  }

  /// Blocks `.add("forbidden")` and rewrites `.add("typo")` to `.add("fixed")`.
  struct Guarding: Middleware {
    let blocked: Recorder<String>

    func intercept(_ input: CartReactor.Action, state: CartReactor.State) -> CartReactor.Action? {
      switch input {
      case .add("forbidden"):
        blocked.append("\(input) with \(state.items.count) items")
        return nil
      case .add("typo"):
        return .add("fixed")
      default:
        return input
      }
    }
  }

  final class CartReactor: Reactor {
    enum Action: Sendable {
      case add(String)
      case addTwice(String)
      case addLater(String)
      case addAsync(String)
    }

    enum Mutation: Sendable {
      case append(String)
    }

    struct State: Sendable, Equatable {
      var items: [String] = []
    }

    let initialState = State()
    let runtime = ReactorRuntime<Action, Mutation, State>()
    let attached: [any Middleware<Action, State>]
    let clock: TestScheduler
    let mutates = Counter()

    init(middlewares: [any Middleware<Action, State>], clock: TestScheduler) {
      attached = middlewares
      self.clock = clock
    }

    var scheduler: any Scheduler { ImmediateScheduler.instance }
    var middlewares: [any Middleware<Action, State>] { attached }

    func mutate(action: Action) -> Mutations<Mutation> {
      mutates.increment()
      switch action {
      case .add(let item):
        return [.append(item)]
      case .addTwice(let item):
        return [.append(item), .append(item)]
      case .addLater(let item):
        return .stream(Observable.just(.append(item)).delay(.seconds(1), scheduler: clock))
      case .addAsync(let item):
        return .run { send in send(.append(item)) }
      }
    }

    func reduce(into state: inout State, mutation: Mutation) {
      switch mutation {
      case .append(let item): state.items.append(item)
      }
    }
  }

  @Test func recordingMiddlewareSeesActionMutationAndState() async {
    let log = Recorder<String>()
    let clock = TestScheduler()
    let reactor = CartReactor(middlewares: [Recording(log: log)], clock: clock)
    reactor.send(.add("a"))
    reactor.send(.addTwice("b"))
    reactor.send(.addLater("c"))
    #expect(log.values.count == 3)
    await clock.advance(by: .seconds(1))
    reactor.send(.addAsync("d"))
    // The operation ended and its mutation went through the middleware (which runs as the
    // mutation is reduced).
    await reactor.finish()
    #expect(log.values.count == 5)
    #expect(
      log.values == [
        #"add("a") → append("a") → ["a"]"#,
        #"addTwice("b") → append("b") → ["a", "b"]"#,
        #"addTwice("b") → append("b") → ["a", "b", "b"]"#,
        #"addLater("c") → append("c") → ["a", "b", "b", "c"]"#,
        #"addAsync("d") → append("d") → ["a", "b", "b", "c", "d"]"#,
      ]
    )
    #expect(reactor.effectsInFlight == 0)
  }

  // An intercepting middleware blocks an action before `mutate` runs, or rewrites it; the
  // middlewares after it see only what it let through.
  @Test func aMiddlewareReadsTheMutationTyped() async {
    let appended = Recorder<String>()
    let reactor = CartReactor(
      middlewares: [TypedRecording(appended: appended)],
      clock: TestScheduler()
    )
    reactor.send(.add("a"))
    reactor.send(.addTwice("b"))
    await reactor.finish()
    #expect(appended.values == ["a", "b", "b"])
    let record = MiddlewareRecord<CartReactor.Action, CartReactor.State>(
      input: .add("x"),
      mutation: "not a mutation",
      state: .init(),
      sequence: 1,
      time: .zero,
      dispatcher: .none
    )
    #expect(record.mutation(as: CartReactor.Mutation.self) == nil)
  }

  @Test func interceptingMiddlewareBlocksAnAction() {
    let log = Recorder<String>()
    let blocked = Recorder<String>()
    let reactor = CartReactor(
      middlewares: [Guarding(blocked: blocked), Recording(log: log)],
      clock: TestScheduler()
    )
    reactor.send(.add("a"))
    reactor.send(.add("forbidden"))
    reactor.send(.add("typo"))
    #expect(reactor.currentState.items == ["a", "fixed"])
    #expect(reactor.mutates.value == 2)
    #expect(blocked.values == [#"add("forbidden") with 1 items"#])
    #expect(
      log.values == [
        #"add("a") → append("a") → ["a"]"#,
        #"add("fixed") → append("fixed") → ["a", "fixed"]"#,
      ]
    )
  }

  // A middleware's dispatcher sends actions to the reactor: they are queued behind the current
  // one and processed after it, never recursively.
  struct Echo: Middleware {
    let log: Recorder<String>

    func process(_ record: MiddlewareRecord<CartReactor.Action, CartReactor.State>) {
      log.append("saw \(record.state.items)")
      if case .add("ping") = record.input { record.dispatcher.dispatch(.add("pong")) }
    }
  }

  @Test func middlewareDispatchIsQueued() {
    let log = Recorder<String>()
    let reactor = CartReactor(middlewares: [Echo(log: log)], clock: TestScheduler())
    reactor.send(.add("ping"))
    #expect(reactor.currentState.items == ["ping", "pong"])
    #expect(log.values == [#"saw ["ping"]"#, #"saw ["ping", "pong"]"#])
  }
}
