import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Dispatch
import Testing

/// `Reactor.finish()`: the awaitable drain of a reactor's asynchronous mutations.
@Suite(.checksResources)
struct ReactorFinishTests {
  /// A reactor whose actions start each kind of asynchronous work, released by `proceed`.
  final class WorkReactor: Reactor {
    enum Action: Sendable {
      /// An `async` operation that waits for `proceed`, then mutates; `.chain` follows.
      case operation
      /// A mutation stream that emits on a queue once `proceed` fired.
      case stream
      /// A stream that never completes, cancellable by id.
      case endless
      case chain
    }

    enum Mutation: Sendable {
      case add(Int)
    }

    struct State: Sendable, Equatable {
      var total = 0
    }

    let initialState = State()
    let runtime = ReactorRuntime<Action, Mutation, State>()
    let proceed: CascadeTestSupport.Signal
    let endless = PublishSubject<Mutation, Never>()

    init(proceed: CascadeTestSupport.Signal) {
      self.proceed = proceed
    }

    func mutate(action: Action) -> Mutations<Mutation> {
      let proceed = proceed
      switch action {
      case .operation:
        return .run { [weak self] send in
          _ = await proceed.wait()
          send(.add(1))
          // Work started by work: finish() waits for it too.
          self?.send(.chain)
        }
      case .chain:
        return .run { send in send(.add(10)) }
      case .stream:
        return .stream(
          Observable<Mutation, Never>.create { observer in
            DispatchQueue.global().async {
              _ = proceed.waitBlocking()
              observer.onNext(.add(100))
              observer.onCompleted()
            }
            return Disposables.empty
          }
        )
      case .endless:
        return Mutations.stream(endless).cancellable(id: "endless")
      }
    }

    func reduce(into state: inout State, mutation: Mutation) {
      switch mutation {
      case .add(let amount): state.total += amount
      }
    }
  }

  // finish() waits for an async operation, the mutations it sends, and the operation those
  // start in turn.
  @Test func finishWaitsForOperationsAndTheWorkTheyStart() async {
    let proceed = Signal()
    let reactor = WorkReactor(proceed: proceed)
    reactor.send(.operation)
    #expect(reactor.effectsInFlight == 1)
    Task { proceed.fire() }
    await reactor.finish()
    #expect(reactor.currentState.total == 11)
    #expect(reactor.effectsInFlight == 0)
  }

  // finish() waits for a stream of mutations until it completes, on whichever thread it emits.
  @Test func finishWaitsForMutationStreams() async {
    let proceed = Signal()
    let reactor = WorkReactor(proceed: proceed)
    reactor.send(.stream)
    Task { proceed.fire() }
    await reactor.finish()
    #expect(reactor.currentState.total == 100)
  }

  // A stream that never completes is ended by cancelling it; finish() then returns.
  @Test func finishReturnsOnceAnEndlessStreamIsCancelled() async {
    let reactor = WorkReactor(proceed: Signal())
    reactor.send(.endless)
    reactor.endless.onNext(.add(5))
    reactor.cancel(id: "endless")
    await reactor.finish()
    reactor.endless.onNext(.add(5))
    #expect(reactor.currentState.total == 5)
  }
}
