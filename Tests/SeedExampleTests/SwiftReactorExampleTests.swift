import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Dispatch
import Testing

// The SwiftReactor seed's examples (seeds/001), ported with import and stream-type changes only
// (Combine's `AnyPublisher<T, Never>` → `Observable<T, Never>`, `Just(x)` → `Observable.just(x)`),
// where that compiles.

/// SwiftUI's `Color`, headless.
private enum Color: Equatable {
  case white
  case red
}

// MARK: - Reactor: the BaseReactor example

// Port changes beyond imports and stream types:
// 1. `, @unchecked Sendable` restated on the subclass: Swift 6 warns "class 'ExampleReactor' must
//    restate inherited '@unchecked Sendable' conformance" (BaseReactor is `@unchecked Sendable`).
// (`.delay(for: 2, scheduler: DispatchQueue.global())`, `.eraseToAnyPublisher()` and
// `.prepend(_:)` compile as written: Combine's spellings stand beside Cascade's, and a
// `DispatchQueue` is a `Scheduler`. The test waits for the delayed mutation itself, two seconds.)
private class ExampleReactor: BaseReactor<
  ExampleReactor.Action, ExampleReactor.Mutation, ExampleReactor.State
>, @unchecked Sendable
{
  // Safety: restated from BaseReactor, whose own state lives in its thread-safe runtime; this
  // subclass adds only immutable Sendable stored properties (ReactorStartConcurrencyTests races a
  // BaseReactor subclass under ThreadSanitizer).
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
        for: 2,
        scheduler: DispatchQueue.global()
      )
      .eraseToAnyPublisher()

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
      .prepend(.setText("hello"))
      .eraseToAnyPublisher()
  }
}

// MARK: - mutate(action:) and reduce(state:mutation:) snippets

/// The seed's `API`, faked: `setSetting` succeeds for `true` and fails for `false`, a virtual
/// second later.
private enum API {
  struct Failure: Error {}

  static let scheduler = LockedBox(TestScheduler())

  // Not `.error(…).delay(…)`: Cascade's `delay`, like RxSwift's, does not delay a failure,
  // where Combine's does; a Combine port that delays a failing publisher fails at once.
  static func setSetting(_ value: Bool) -> Observable<SettingsReactor.Mutation, any Error> {
    Observable<Void, any Error>.just(()).delay(.seconds(1), scheduler: scheduler.value)
      .flatMap { _ -> Observable<SettingsReactor.Mutation, any Error> in
        value ? .just(.setSwitch(value)) : .error(Failure())
      }
  }
}

// Port changes beyond imports and stream types (the `mutate`/`reduce` snippets, put in one
// reactor):
// 1. The reactor around them (`BaseReactor` subclass, `Action`, `Mutation`, `State`, `init`) is not
//    in the seed and is written here, with `@unchecked Sendable` restated as above.
// 2. `-> Mutations` → `-> Mutations<Mutation>`, and `func` → `override func`: the seed's snippet
//    leaves out the generic argument (SwiftReactor's `Mutations` is generic too) and the
//    `override` its own BaseReactor example has.
// 3. The `reduce` snippet's `switch` gets a `.setSwitch` case: the `mutate` snippet needs that
//    mutation, and a `switch` must be exhaustive.
private class SettingsReactor: BaseReactor<
  SettingsReactor.Action, SettingsReactor.Mutation, SettingsReactor.State
>, @unchecked Sendable
{
  // Safety: restated from BaseReactor, whose own state lives in its thread-safe runtime; this
  // subclass adds only immutable Sendable stored properties (ReactorStartConcurrencyTests races a
  // BaseReactor subclass under ThreadSanitizer).
  enum Action {
    case noMutationNeededAction
    case enterText(String)
    case setSwitchAsync(Bool)
  }

  enum Mutation {
    case setText(String)
    case setSwitch(Bool)
  }

  struct State {
    var text = ""
    var switchValue = false
  }

  init() {
    super.init(initialState: State())
  }

  override func mutate(action: Action) -> Mutations<Mutation> {
    switch action {
    case .noMutationNeededAction:
      return .none
    case .enterText(let text):
      return Mutations(sync: .setText(text))
    case .setSwitchAsync(let value):
      let mutation = API.setSetting(value)
        .catch { _ in Observable.just(.setSwitch(!value)) }

      return Mutations(sync: .setSwitch(value), async: mutation)
    }
  }

  override func reduce(state: State, mutation: Mutation) -> State {
    var newState = state

    switch mutation {
    case .setText(let text):
      newState.text = text
    case .setSwitch(let value):
      newState.switchValue = value
    }

    return newState
  }
}

// MARK: - Reactor Nesting

/// Not in the seed: the nested reactor the nesting example uses.
private final class DetailReactor: BaseReactor<
  DetailReactor.Action, DetailReactor.Mutation, DetailReactor.State
>, @unchecked Sendable
{
  // Safety: restated from BaseReactor, whose own state lives in its thread-safe runtime; this
  // subclass adds only immutable Sendable stored properties (ReactorStartConcurrencyTests races a
  // BaseReactor subclass under ThreadSanitizer).
  enum Action { case ageChanged(Int) }
  enum Mutation { case setAge(Int) }
  struct State: Equatable { var age = 0 }

  init() { super.init(initialState: State()) }

  override func mutate(action: Action) -> Mutations<Mutation> {
    switch action {
    case .ageChanged(let age): [.setAge(age)]
    }
  }

  override func reduce(into state: inout State, mutation: Mutation) {
    switch mutation {
    case .setAge(let age): state.age = age
    }
  }
}

// Port changes beyond imports and stream types (Reactor Nesting):
// 1. `[...]` (the seed's elision) is filled with `enum Action { case nameChanged(String) }` and
//    `State.name` for the ActionBinding example below, and `@unchecked Sendable` is restated.
// 2. `detail: detailReactor.state` → `detail: detailReactor.currentState`, and
//    `detailReactor.$state` → `detailReactor.state`: SwiftReactor's `state` is the current value
//    and `$state` its publisher; Cascade's `state` is the stream and `currentState` the value.
// 3. `public enum Mutation` → `enum Mutation`: the class is private to this file.
// 4. `.merge(with: detail)` compiles as written (Cascade's `merge(with:)` returns `Observable`).
private class AppReactor: BaseReactor<AppReactor.Action, AppReactor.Mutation, AppReactor.State>,
  @unchecked Sendable
{
  // Safety: restated from BaseReactor, whose own state lives in its thread-safe runtime; this
  // subclass adds only immutable Sendable stored properties (ReactorStartConcurrencyTests races a
  // BaseReactor subclass under ThreadSanitizer).
  enum Action {
    case nameChanged(String)
  }

  enum Mutation {
    case setDetail(DetailReactor.State)
    case setName(String)
  }

  struct State {
    var detail: DetailReactor.State
    var name = ""
  }

  let detailReactor: DetailReactor

  init() {

    detailReactor = DetailReactor()

    super.init(
      initialState: State(
        detail: detailReactor.currentState
      )
    )
  }

  override func mutate(action: Action) -> Mutations<Mutation> {
    switch action {
    case .nameChanged(let name): [.setName(name)]
    }
  }

  override func reduce(state: State, mutation: Mutation) -> State {
    var newState = state

    switch mutation {
    case .setDetail(let state):
      newState.detail = state
    case .setName(let name):
      newState.name = name
    }

    return newState
  }

  // transform the state changes to mutations
  override func transform(mutation: Observable<Mutation, Never>) -> Observable<Mutation, Never> {
    let detail = detailReactor.state
      .map { Mutation.setDetail($0) }

    return
      mutation
      .merge(with: detail)
  }
}

// MARK: - Use the Reactor protocol

// Port changes beyond imports and stream types (CountingReactor):
// 1. The seed's five members `action` (a `PassthroughSubject`), `mutation`, `@Published state`,
//    `cancellables` and the `createStateStream()` call in `init` are replaced by one stored
//    property, `let runtime = ReactorRuntime<Action, Mutation, State>()`, and an empty `init`.
//    Kept with only the type names changed (`PassthroughSubject` → `PublishSubject`), `action`
//    would *compile* and shadow the protocol's `action` input, so actions sent to it would
//    silently go nowhere; `@Published` does not exist without Combine.
// 2. `class` → `final class`: `Reactor` is `Sendable`.
private final class CountingReactor: Reactor {

  enum Action {
    case countUp
    case countUpAsync
  }

  enum Mutation {
    case countUp
  }

  struct State {
    var currentCount: Int = 0
  }

  let runtime = ReactorRuntime<Action, Mutation, State>()

  let initialState = State()

  /// Creates a counter at zero.
  public init() {}

  func mutate(action: Action) -> Mutations<Mutation> {
    switch action {
    case .countUp:
      return [.countUp]
    case .countUpAsync:
      return Mutations(async: Observable.just(.countUp).eraseToAnyPublisher())
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var newState = state

    switch mutation {
    case .countUp:
      newState.currentCount += 1
    }

    return newState
  }
}

// MARK: - UIKit

// Port changes beyond imports and stream types (BaseCountingViewController): UIKit's
// `BaseReactorViewController<CountingReactor>` → Cascade's `View` protocol (a `@MainActor` class
// with `let reactorBinding = ReactorBinding<CountingReactor>()` and a `disposeBag`); `override
// func bind(reactor: Reactor)` → `func bind(reactor: CountingReactor)`; `reactor.$state` →
// `reactor.state`; `.assign(to: \.label.text, on: self).store(in: &cancellables)` →
// `.subscribe(onNext:)` (with `MainActor.assumeIsolated`, the closure is `@Sendable`)
// `.disposed(by: disposeBag)`; `UILabel` → a headless `Label`.
@MainActor
private final class Label {
  var text: String?
}

@MainActor
private final class BaseCountingViewController: View {
  let reactorBinding = ReactorBinding<CountingReactor>()
  var disposeBag = DisposeBag()

  var label = Label()

  // automatically called when you set the reactor
  func bind(reactor: CountingReactor) {
    reactor.state
      .map { String($0.currentCount) }
      .subscribe(onNext: { [label] text in MainActor.assumeIsolated { label.text = text } })
      .disposed(by: disposeBag)
  }
}

// MARK: - Tests

@Suite(.serialized, .checksResources)
struct SwiftReactorExampleTests {
  @Test func exampleReactor() async {
    let reactor = ExampleReactor()
    // transform(mutation:) prepends `.setText("hello")` when the reactor starts.
    #expect(reactor.currentState.text == "hello")

    reactor.action.onNext(.enterText("typed"))
    #expect(reactor.currentState.text == "typed")
    reactor.action.onNext(.setSwitch(true))
    #expect(reactor.currentState.switchValue == true)
    reactor.action.onNext(.colorChangePressed(.red))
    #expect(reactor.currentState.backgroundColor == .red)

    // The async mutation: `true` at once, then its negation two seconds later, from a global
    // queue (the test waits for it).
    reactor.action.onNext(.setSwitch(false))
    let switchValues = Recorder<Bool>()
    let subscription = reactor.state.map(\.switchValue)
      .subscribe(onNext: { switchValues.append($0) })
    reactor.action.onNext(.setSwitchAsync(true))
    #expect(reactor.currentState.switchValue == true)
    #expect(await switchValues.wait(forCount: 3))
    #expect(switchValues.values == [false, true, false])
    #expect(reactor.currentState.switchValue == false)
    subscription.dispose()
  }

  @Test func mutateAndReduceSnippets() {
    let scheduler = TestScheduler()
    API.scheduler.value = scheduler
    let reactor = SettingsReactor()

    reactor.action.onNext(.enterText("hi"))
    reactor.action.onNext(.noMutationNeededAction)
    #expect(reactor.currentState.text == "hi")

    // Succeeds: `true` at once, and the API confirms it.
    reactor.action.onNext(.setSwitchAsync(true))
    #expect(reactor.currentState.switchValue == true)
    scheduler.advance(by: .seconds(1))
    #expect(reactor.currentState.switchValue == true)

    // Fails: `false` at once, then `catch` puts back `true`.
    reactor.action.onNext(.setSwitchAsync(false))
    #expect(reactor.currentState.switchValue == false)
    scheduler.advance(by: .seconds(1))
    #expect(reactor.currentState.switchValue == true)
  }

  /// The nesting example, and the `ActionBinding`s of the View example (a value, not SwiftUI's
  /// property wrapper: `@ActionBinding(\AppReactor.self, keyPath: \.name, action: …)` →
  /// `ActionBinding(reactor, keyPath: \.name, action: …)`, with the reactor passed in instead of
  /// an environment key path).
  @Test @MainActor func nestingAndActionBindings() {
    let reactor = AppReactor()
    let name = ActionBinding(reactor, keyPath: \.name, action: AppReactor.Action.nameChanged)
    let age = ActionBinding(
      reactor.detailReactor,
      keyPath: \.age,
      action: DetailReactor.Action.ageChanged
    )

    name.wrappedValue = "Ada"
    #expect(reactor.currentState.name == "Ada")
    #expect(name.wrappedValue == "Ada")

    age.wrappedValue = 36
    #expect(reactor.detailReactor.currentState.age == 36)
    // The parent's state follows the nested reactor's (one source of truth).
    #expect(reactor.currentState.detail.age == 36)
  }

  @Test @MainActor func countingReactorAndItsViewController() {
    let countingViewController = BaseCountingViewController()
    countingViewController.reactor = CountingReactor()
    #expect(countingViewController.label.text == "0")

    countingViewController.reactor?.action.onNext(.countUp)
    #expect(countingViewController.label.text == "1")
    countingViewController.reactor?.action.onNext(.countUpAsync)
    #expect(countingViewController.reactor?.currentState.currentCount == 2)
    #expect(countingViewController.label.text == "2")
    countingViewController.reactor = nil
  }
}
