import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// The SwiftReactor seed's examples (seeds/001), ported with import and stream-type changes only
// (Combine's `AnyPublisher<T, Never>` → `Observable<T, Never>`, `Just(x)` → `Observable.just(x)`),
// where that compiles.

/// SwiftUI's `Color`, headless.
private enum Color: Equatable {
  case white
  case red
}

/// The scheduler standing in for `DispatchQueue.global()`: virtual time.
nonisolated(unsafe) private var testScheduler = TestScheduler()

// MARK: - Reactor: the BaseReactor example

// Port changes beyond imports and stream types:
// 1. `, @unchecked Sendable` restated on the subclass: Swift 6 warns "class 'ExampleReactor' must
//    restate inherited '@unchecked Sendable' conformance" (BaseReactor is `@unchecked Sendable`).
// 2. `.delay(for: 2, scheduler: DispatchQueue.global())` → `.delay(.seconds(2), scheduler: …)`:
//    Cascade's `delay` takes a `Duration` without the `for:` label; the scheduler is the test's.
// 3. `.eraseToAnyPublisher()` dropped (twice): Cascade's `Mutations(sync:async:)` takes any
//    `ObservableType`; `Observable.just` replaces Combine's `Just`.
// 4. `.prepend(.setText("hello"))` → `.startWith(.setText("hello"))`: RxSwift's name, not Combine's.
private class ExampleReactor: BaseReactor<
  ExampleReactor.Action, ExampleReactor.Mutation, ExampleReactor.State
>, @unchecked Sendable
{
  enum Action {
    case enterText(String)
    case setSwitch(Bool)
    case setSwitchAsync(Bool)
    case colorChangePressed(Color)
  }

  enum Mutation {
    case setText(String)
    case setSwitch(Bool)
    case setBackgroundColor(Color)
  }

  struct State {
    var text = "initial text"
    var switchValue = false
    var backgroundColor = Color.white
  }

  init() {
    super.init(initialState: State())
  }

  override func mutate(action: Action) -> Mutations<Mutation> {
    switch action {
    case .enterText(let text):
      return [.setText(text)]  //is equal to: Mutations(sync: .setText(text))
    case .setSwitch(let value):
      return [.setSwitch(value)]  //is equal to: Mutations(sync: .setSwitch(value))
    case .setSwitchAsync(let value):
      let mutation = Observable.just(Mutation.setSwitch(!value)).delay(
        .seconds(2),
        scheduler: testScheduler
      )

      return Mutations(sync: .setSwitch(value), async: mutation)
    case .colorChangePressed(let color):
      //is equal to: Mutations(sync: .setBackgroundColor(color))
      return [.setBackgroundColor(color)]
    }
  }

  override func reduce(state: State, mutation: Mutation) -> State {
    var newState = state

    switch mutation {
    case .setText(let text):
      newState.text = text
    case .setSwitch(let value):
      newState.switchValue = value
    case .setBackgroundColor(let color):
      newState.backgroundColor = color
    }

    return newState
  }

  override func transform(mutation: Observable<Mutation, Never>) -> Observable<Mutation, Never> {
    mutation
      .startWith(.setText("hello"))
  }
}

// MARK: - Tests

@Suite(.serialized, .checksResources)
struct SwiftReactorExampleTests {
  @Test func exampleReactor() {
    let scheduler = TestScheduler()
    testScheduler = scheduler

    let reactor = ExampleReactor()
    // transform(mutation:) prepends `.setText("hello")` when the reactor starts.
    #expect(reactor.currentState.text == "hello")

    reactor.action.onNext(.enterText("typed"))
    #expect(reactor.currentState.text == "typed")
    reactor.action.onNext(.setSwitch(true))
    #expect(reactor.currentState.switchValue == true)
    reactor.action.onNext(.colorChangePressed(.red))
    #expect(reactor.currentState.backgroundColor == .red)

    // The async mutation: `true` at once, then its negation two (virtual) seconds later.
    reactor.action.onNext(.setSwitchAsync(true))
    #expect(reactor.currentState.switchValue == true)
    scheduler.advance(by: .seconds(1))
    #expect(reactor.currentState.switchValue == true)
    scheduler.advance(by: .seconds(1))
    #expect(reactor.currentState.switchValue == false)
  }
}
