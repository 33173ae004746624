import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// `Pulse`, as the ReactorKit README describes it: a value whose stream emits on every
/// assignment, even of an equal value, and not when other parts of the state change.
@Suite(.checksResources)
struct PulseTests {
  // The README's first snippet.
  @Test func pulseHasADiffOnlyWhenMutated() {
    var messagePulse: Pulse<String?> = Pulse(wrappedValue: "Hello tokijh")

    let oldMessagePulse: Pulse<String?> = messagePulse
    messagePulse.value = "Hello tokijh"  // add valueUpdatedCount +1

    #expect(oldMessagePulse.valueUpdatedCount != messagePulse.valueUpdatedCount)
    #expect(oldMessagePulse.value == messagePulse.value)
  }

  // The README's alert reactor.
  final class MyReactor: Reactor {
    enum Action: Sendable {
      case alert(String?)
      case doSomeAction
    }

    enum Mutation: Sendable {
      case setAlertMessage(String?)
      case setCount(Int)
    }

    struct State: Sendable {
      @Pulse var alertMessage: String?
      var count = 0
    }

    let initialState = State()
    let runtime = ReactorRuntime<Action, Mutation, State>()

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func mutate(action: Action) -> Mutations<Mutation> {
      switch action {
      case .alert(let message):
        return .just(Mutation.setAlertMessage(message))
      case .doSomeAction:
        return .just(Mutation.setCount(currentState.count + 1))
      }
    }

    func reduce(state: State, mutation: Mutation) -> State {
      var newState = state

      switch mutation {
      case .setAlertMessage(let alertMessage):
        newState.alertMessage = alertMessage
      case .setCount(let count):
        newState.count = count
      }

      return newState
    }
  }

  // The README's "Cases", in order.
  @Test func alertCases() {
    let reactor = MyReactor()
    let alerts = Recorder<String>()
    let disposeBag = DisposeBag()

    // View
    reactor.pulse(\.$alertMessage)
      .compactMap { $0 }  // filter nil
      .subscribe(onNext: { (message: String) in
        alerts.append(message)  // showAlert(message)
      })
      .disposed(by: disposeBag)

    // Cases
    reactor.action.onNext(.alert("Hello"))  // showAlert() is called with `Hello`
    #expect(alerts.values == ["Hello"])
    reactor.action.onNext(.alert("Hello"))  // showAlert() is called with `Hello`
    #expect(alerts.values == ["Hello", "Hello"])
    reactor.action.onNext(.doSomeAction)  // showAlert() is not called
    #expect(alerts.values == ["Hello", "Hello"])
    reactor.action.onNext(.alert("Hello"))  // showAlert() is called with `Hello`
    #expect(alerts.values == ["Hello", "Hello", "Hello"])
    reactor.action.onNext(.alert("tokijh"))  // showAlert() is called with `tokijh`
    #expect(alerts.values == ["Hello", "Hello", "Hello", "tokijh"])
    reactor.action.onNext(.doSomeAction)  // showAlert() is not called
    #expect(alerts.values == ["Hello", "Hello", "Hello", "tokijh"])
    #expect(reactor.currentState.count == 2)
    disposeBag.dispose()
  }

  // A late subscriber gets the current pulse once (the state stream replays it), then only
  // new assignments.
  @Test func lateSubscriberGetsTheCurrentValueOnce() {
    let reactor = MyReactor()
    reactor.send(.alert("first"))
    let alerts = Recorder<String?>()
    let subscription = reactor.pulse(\.$alertMessage).subscribe(onNext: { alerts.append($0) })
    reactor.send(.doSomeAction)
    reactor.send(.alert(nil))
    reactor.send(.alert(nil))
    #expect(alerts.values == ["first", nil, nil])
    subscription.dispose()
  }
}
