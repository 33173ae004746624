import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// The headless `View`: assigning `reactor` binds once and disposes the previous bindings
/// (ReactorKit README, "View" and Example 2, with subjects standing for the buttons and a string
/// for the label).
@Suite(.checksResources)
struct ViewTests {
  final class CounterReactor: Reactor {
    enum Action: Sendable {
      case increment
      case decrement
    }

    struct State: Sendable, Equatable {
      var count = 0
    }

    let initialState = State()
    let runtime = ReactorRuntime<Action, Action, State>()

    func reduce(into state: inout State, mutation: Action) {
      switch mutation {
      case .increment: state.count += 1
      case .decrement: state.count -= 1
      }
    }
  }

  // ReactorKit README, Example 2: `CounterViewController`, without UIKit. The reactor delivers
  // on the main queue (the default), so the label is written on the main actor.
  @MainActor
  final class CounterView: View {
    typealias Reactor = CounterReactor

    let reactorBinding = ReactorBinding<CounterReactor>()
    var disposeBag = DisposeBag()

    let incrementButton = PublishSubject<Void, Never>()
    let decrementButton = PublishSubject<Void, Never>()
    var countLabel = ""

    var bindCount = 0
    let bindingsDisposed = Counter()

    func bind(reactor: CounterReactor) {
      bindCount += 1

      // Action
      incrementButton
        .map { Reactor.Action.increment }
        .bind(to: reactor.action)
        .disposed(by: disposeBag)

      decrementButton
        .map { Reactor.Action.decrement }
        .bind(to: reactor.action)
        .disposed(by: disposeBag)

      // State
      reactor.state
        .map { "\($0.count)" }
        .subscribe(onNext: { [weak self] text in
          MainActor.assumeIsolated { self?.countLabel = text }
        })
        .disposed(by: disposeBag)

      let disposed = bindingsDisposed
      Disposables.create { disposed.increment() }.disposed(by: disposeBag)
    }
  }

  @MainActor
  @Test func assigningTheReactorBindsOnce() async {
    let view = CounterView()
    #expect(view.reactor == nil)
    let reactor = CounterReactor()
    view.reactor = reactor  // inject reactor
    #expect(view.bindCount == 1)
    #expect(view.reactor === reactor)
    await mainQueueDrained()
    #expect(view.countLabel == "0")

    view.incrementButton.onNext(())
    view.incrementButton.onNext(())
    view.decrementButton.onNext(())
    await mainQueueDrained()
    #expect(view.countLabel == "1")
    #expect(reactor.currentState.count == 1)
    #expect(view.bindCount == 1)
    view.reactor = nil
  }

  // Reassigning disposes the previous bindings: the old reactor no longer gets the taps, and the
  // label follows the new one. Assigning `nil` only disposes.
  @MainActor
  @Test func reassigningDisposesThePreviousBindings() async {
    let view = CounterView()
    let first = CounterReactor()
    let second = CounterReactor()
    view.reactor = first
    view.incrementButton.onNext(())

    view.reactor = second
    #expect(view.bindCount == 2)
    #expect(view.bindingsDisposed.value == 1)
    view.incrementButton.onNext(())
    view.incrementButton.onNext(())
    #expect(first.currentState.count == 1)
    #expect(second.currentState.count == 2)
    await mainQueueDrained()
    #expect(view.countLabel == "2")

    first.send(.decrement)  // the old reactor's states no longer reach the view
    await mainQueueDrained()
    #expect(view.countLabel == "2")

    view.reactor = nil
    #expect(view.bindCount == 2)
    #expect(view.bindingsDisposed.value == 2)
    #expect(view.reactor == nil)
    view.incrementButton.onNext(())
    #expect(second.currentState.count == 2)
  }
}
