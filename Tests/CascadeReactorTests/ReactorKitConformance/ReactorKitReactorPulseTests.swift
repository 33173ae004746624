import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// ReactorKit's `Reactor.pulse` case (ReactorKit/ReactorKit,
// Tests/ReactorKitTests/Reactor+PulseTests.swift), with its reactor in ReactorKit's form
// (`mutate` returning an `Observable`, no `runtime`).

private final class AlertReactor: Reactor {
  enum Action: Sendable {
    case showAlert(message: String?)
    case increaseCount
  }

  enum Mutation: Sendable {
    case setAlertMessage(String?)
    case increaseCount
  }

  struct State: Sendable {
    @Pulse var alertMessage: String?
    var count = 0
  }

  let initialState = State()

  var scheduler: any Scheduler { ImmediateScheduler.instance }

  func mutate(action: Action) -> Observable<Mutation, Never> {
    switch action {
    case .showAlert(let message):
      return .just(.setAlertMessage(message))
    case .increaseCount:
      return .just(.increaseCount)
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var newState = state
    switch mutation {
    case .setAlertMessage(let alertMessage):
      newState.alertMessage = alertMessage
    case .increaseCount:
      newState.count += 1
    }
    return newState
  }
}

@Suite(.checksResources)
struct ReactorKitReactorPulseTests {
  /// The pulse stream emits on every assignment of the pulse, an equal message included, and
  /// not when another part of the state changes.
  @Test func testPulse() {
    let reactor = AlertReactor()
    let disposeBag = DisposeBag()
    let receivedAlertMessages = Recorder<String>()

    reactor.pulse(\.$alertMessage)
      .compactMap { $0 }
      .subscribe(onNext: { receivedAlertMessages.append($0) })
      .disposed(by: disposeBag)

    reactor.action.onNext(.showAlert(message: "1"))  // alert "1"
    reactor.action.onNext(.increaseCount)  // no alert
    reactor.action.onNext(.showAlert(message: nil))  // no alert
    reactor.action.onNext(.showAlert(message: "2"))  // alert "2"
    reactor.action.onNext(.showAlert(message: nil))  // no alert
    reactor.action.onNext(.increaseCount)  // no alert
    reactor.action.onNext(.showAlert(message: nil))  // no alert
    reactor.action.onNext(.showAlert(message: "3"))  // alert "3"
    reactor.action.onNext(.showAlert(message: "3"))  // alert "3" again

    #expect(receivedAlertMessages.values == ["1", "2", "3", "3"])
    #expect(reactor.currentState.count == 2)
  }
}
