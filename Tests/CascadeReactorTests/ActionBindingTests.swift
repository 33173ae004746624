import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// `ActionBinding`: SwiftReactor's get/set binding from a part of the state to an action,
/// without SwiftUI.
@Suite(.checksResources)
struct ActionBindingTests {
  final class AppReactor: Reactor {
    enum Action: Sendable, Equatable {
      case nameChanged(String)
    }

    struct State: Sendable, Equatable {
      var name = ""
      var edits = 0
    }

    let initialState = State()
    let runtime = ReactorRuntime<Action, Action, State>()

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func reduce(into state: inout State, mutation: Action) {
      switch mutation {
      case .nameChanged(let name):
        state.name = name
        state.edits += 1
      }
    }
  }

  // SwiftReactor README, "View":
  // `@ActionBinding(\AppReactor.self, keyPath: \.name, action: AppReactor.Action.nameChanged)`.
  @Test func readsTheStateAndWritesAnAction() {
    let reactor = AppReactor()
    let name = ActionBinding(reactor, keyPath: \.name, action: AppReactor.Action.nameChanged)
    #expect(name.wrappedValue == "")
    name.wrappedValue = "Ada"  // sends .nameChanged("Ada"); the synchronous mutation applies it
    #expect(name.wrappedValue == "Ada")
    #expect(reactor.currentState == AppReactor.State(name: "Ada", edits: 1))
  }

  // Each write is an action, even of an equal value.
  @Test func everyWriteIsAnAction() {
    let reactor = AppReactor()
    let name = ActionBinding(reactor, keyPath: \.name, action: { .nameChanged($0) })
    name.wrappedValue = "Ada"
    name.wrappedValue = "Ada"
    #expect(reactor.currentState.edits == 2)
  }

  // On a stubbed reactor, a write is recorded and a read gives the stub's state.
  @Test func stubbedReactor() {
    let reactor = AppReactor()
    reactor.isStubEnabled = true
    let name = ActionBinding(reactor, keyPath: \.name, action: { .nameChanged($0) })
    name.wrappedValue = "Ada"
    #expect(reactor.stub.actions == [.nameChanged("Ada")])
    #expect(name.wrappedValue == "")
    reactor.stub.state.value = AppReactor.State(name: "Grace", edits: 0)
    #expect(name.wrappedValue == "Grace")
  }
}
