import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// The ReactorKit seed's examples (seeds/004), ported with import and stream-type changes only,
// where that compiles. Stream types: RxSwift's `Observable<Mutation>` is
// `Observable<Mutation, Never>` (Cascade's streams carry their failure type). A reactor conforms
// as ReactorKit's do: no `runtime` property (the shared table `ReactorRuntimes` keeps it), and
// `mutate(action:)` returning an `Observable`. `CounterReactorFastForm` below is the same counter
// in Cascade's fast form, with `let runtime = …` and `Mutations`.

// MARK: - Example 1: Creating a Reactor

// Port changes beyond imports and stream types (Example 1):
// 1. `class` → `final class`: `Reactor` refines `Sendable`, and a non-final class cannot be
//    `Sendable` ("non-final class 'CounterReactor' cannot conform to the 'Sendable' protocol").
private final class CounterReactor: Reactor {
  enum Action {
    case increment
    case decrement
  }

  enum Mutation {
    case incrementCount
    case decrementCount
  }

  struct State {
    var count: Int = 0
  }

  let initialState = State()

  func mutate(action: Action) -> Observable<Mutation, Never> {
    switch action {
    case .increment:
      return .just(.incrementCount)
    case .decrement:
      return .just(.decrementCount)
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var newState = state
    switch mutation {
    case .incrementCount:
      newState.count += 1
    case .decrementCount:
      newState.count -= 1
    }
    return newState
  }
}

/// Example 1's counter in Cascade's fast form, not the seed's.
///
/// A declared `runtime` (no lookup in the shared table; released with the reactor) and
/// `Mutations` (a synchronous mutation with no stream): only the two marked lines differ.
private final class CounterReactorFastForm: Reactor {
  typealias Action = CounterReactor.Action
  typealias Mutation = CounterReactor.Mutation
  typealias State = CounterReactor.State

  let initialState = State()
  let runtime = ReactorRuntime<Action, Mutation, State>()  // differs

  func mutate(action: Action) -> Mutations<Mutation> {  // differs
    switch action {
    case .increment:
      return .just(.incrementCount)
    case .decrement:
      return .just(.decrementCount)
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var newState = state
    switch mutation {
    case .incrementCount:
      newState.count += 1
    case .decrementCount:
      newState.count -= 1
    }
    return newState
  }
}

// MARK: - Example 2: Binding a Reactor to a View

/// UIKit's button taps and label, headless.
@MainActor
private final class Button {
  let tap = PublishSubject<Void, Never>()
}

@MainActor
private final class Label {
  var text: String?
}

// Port changes beyond imports and stream types (Example 2):
// 1. UIKit is gone: `UIViewController`, the `@IBOutlet weak var …: UILabel!/UIButton!` and
//    `rx.tap` are replaced by the headless `Button`/`Label` above (`incrementButton.rx.tap` →
//    `incrementButton.tap`), and `override func viewDidLoad() { super.viewDidLoad() … }` by a
//    plain `func viewDidLoad()`.
// 2. `@MainActor` on the class and `final`, as Cascade's `View` is a main-actor class protocol.
// 3. An extra stored property `let reactorBinding = ReactorBinding<CounterReactor>()` (ReactorKit
//    keeps the reactor in associated objects). The seed's `typealias Reactor = CounterReactor` is
//    what lets `Reactor.Action.increment` compile: Cascade's `View` calls its associated type
//    `ViewReactor`, not `Reactor`.
// 4. `.map { $0.count }.bind(to: countLabel.rx.text)` → `.map { $0.count }.subscribe(onNext:)`
//    setting `String(count)` in `MainActor.assumeIsolated`: there is no RxCocoa binder, and the
//    subscription's closure is `@Sendable` while the label is main-actor state. (RxCocoa's `text`
//    binder takes `String?`, so the seed's line needs the conversion with RxCocoa too.)
@MainActor
private final class CounterViewController: View {
  typealias Reactor = CounterReactor
  let reactorBinding = ReactorBinding<CounterReactor>()

  var countLabel = Label()
  var incrementButton = Button()
  var decrementButton = Button()

  var disposeBag = DisposeBag()

  func viewDidLoad() {
    self.reactor = CounterReactor()
  }

  func bind(reactor: CounterReactor) {
    // Action
    incrementButton.tap
      .map { Reactor.Action.increment }
      .bind(to: reactor.action)
      .disposed(by: disposeBag)

    decrementButton.tap
      .map { Reactor.Action.decrement }
      .bind(to: reactor.action)
      .disposed(by: disposeBag)

    // State
    reactor.state
      .map { $0.count }
      .subscribe(onNext: { [countLabel] count in
        MainActor.assumeIsolated { countLabel.text = String(count) }
      })
      .disposed(by: disposeBag)
  }
}

// MARK: - The README's ProfileViewReactor

/// The README's `UserAPI`, faked on a test scheduler: answers after 1 virtual second.
private enum UserAPI {
  /// The scheduler and the followed users a test installs.
  static let scheduler = LockedBox(TestScheduler())
  static let following = LockedBox<Set<Int>>([])

  static func isFollowing(_ userID: Int) -> Observable<Bool, Never> {
    Observable.just(following.value.contains(userID))
      .delay(.seconds(1), scheduler: scheduler.value)
  }

  static func follow() -> Observable<Void, Never> {
    Observable.just(()).delay(.seconds(1), scheduler: scheduler.value)
  }
}

// Port changes beyond imports and stream types (the README's ProfileViewReactor):
// 1. `final class`, as for Example 1.
// 2. `case let .follow(userID):` → `case .follow:`: the seed never uses `userID`, which is a
//    warning (the package builds with zero warnings).
// 3. `return` dropped in the one-expression `map` closures: the house lint (OmitExplicitReturns),
//    not the compiler.
// (Each `.map { … }` returned by `mutate(action:)` compiles as written: where an `Observable` is
// expected, CascadeStreams' `map` has a form that returns one.)
// (`action.debug("action")` compiles as written since CascadeStreams gained `debug(_:)`, which
// returns an `Observable`; before, it took `action.do(onNext: …).asObservable()`, as
// CascadeStreams had no `debug` and `do` returns `Streams.Do<…>`. It prints to standard output.)
private final class ProfileViewReactor: Reactor {
  // represent user actions
  enum Action {
    case refreshFollowingStatus(Int)
    case follow(Int)
  }

  // represent state changes
  enum Mutation {
    case setFollowing(Bool)
  }

  // represents the current view state
  struct State {
    var isFollowing: Bool = false
  }

  let initialState: State = State()

  func mutate(action: Action) -> Observable<Mutation, Never> {
    switch action {
    case .refreshFollowingStatus(let userID):  // receive an action
      return UserAPI.isFollowing(userID)  // create an API stream
        .map { (isFollowing: Bool) -> Mutation in
          Mutation.setFollowing(isFollowing)  // convert to Mutation stream
        }

    case .follow:
      return UserAPI.follow()
        .map { _ -> Mutation in
          Mutation.setFollowing(true)
        }
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state  // create a copy of the old state
    switch mutation {
    case .setFollowing(let isFollowing):
      state.isFollowing = isFollowing  // manipulate the state, creating a new state
      return state  // return the new state
    }
  }

  func transform(action: Observable<Action, Never>) -> Observable<Action, Never> {
    action.debug("action")  // Use RxSwift's debug() operator
  }
}

// MARK: - Global States

private struct User: Equatable {
  var name: String
}

// Port changes beyond imports and stream types (Global States): the seed shows only
// `currentUser` and `transform(mutation:)`; the reactor around them is written here.
// `var currentUser: BehaviorSubject<User>` (no initial value in the seed) → a `let` with one.
// (`Observable.merge(mutation, currentUser.map(Mutation.setUser))` compiles as written.)
private final class SessionReactor: Reactor {
  enum Action { case noop }
  enum Mutation { case setUser(User?) }
  struct State { var user: User? }

  let initialState = State()

  let currentUser: BehaviorSubject<User, Never>  // global state

  init(currentUser: BehaviorSubject<User, Never>) {
    self.currentUser = currentUser
  }

  func mutate(action: Action) -> Observable<Mutation, Never> { .empty() }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setUser(let user): state.user = user
    }
    return state
  }

  func transform(mutation: Observable<Mutation, Never>) -> Observable<Mutation, Never> {
    Observable.merge(mutation, currentUser.map(Mutation.setUser))
  }
}

// MARK: - Testing

// The seed's `MyReactor` (used by `testAction_refresh`, `testState_isLoading`, `testIsBookmarked`
// and `testIsLoading`) is not shown; this one is written for those tests. It takes the test
// scheduler, on which its refresh takes 50 virtual seconds and its states are delivered. It is
// written as ReactorKit's users write one (`Observable.concat` of the loading flag and the work).
private final class MyReactor: Reactor {
  enum Action {
    case refresh
    case toggleBookmarked
  }

  enum Mutation {
    case setLoading(Bool)
    case toggleBookmarked
  }

  struct State {
    var isLoading = false
    var isBookmarked = false
  }

  let initialState = State()
  let testScheduler: TestScheduler
  var scheduler: any Scheduler { testScheduler }

  init(scheduler: TestScheduler = TestScheduler()) {
    testScheduler = scheduler
  }

  func mutate(action: Action) -> Observable<Mutation, Never> {
    switch action {
    case .refresh:
      Observable.concat([
        Observable.just(Mutation.setLoading(true)),
        Observable.just(Mutation.setLoading(false)).delay(.seconds(50), scheduler: testScheduler),
      ])
    case .toggleBookmarked:
      .just(.toggleBookmarked)
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setLoading(let isLoading): state.isLoading = isLoading
    case .toggleBookmarked: state.isBookmarked.toggle()
    }
    return state
  }
}

/// UIKit's refresh control and activity indicator, headless.
@MainActor
private final class RefreshControl {
  enum Event { case valueChanged }
  let events = PublishSubject<Void, Never>()
  func sendActions(for event: Event) { events.onNext(()) }
}

@MainActor
private final class ActivityIndicator {
  var isAnimating = false
}

/// The view of the seed's view tests (not shown in the seed), as a Cascade `View`.
@MainActor
private final class MyView: View {
  let reactorBinding = ReactorBinding<MyReactor>()
  var disposeBag = DisposeBag()
  let refreshControl = RefreshControl()
  let activityIndicator = ActivityIndicator()

  func bind(reactor: MyReactor) {
    refreshControl.events.map { MyReactor.Action.refresh }
      .bind(to: reactor.action)
      .disposed(by: disposeBag)
    reactor.state.map(\.isLoading)
      .subscribe(onNext: { [activityIndicator] isLoading in
        MainActor.assumeIsolated { activityIndicator.isAnimating = isLoading }
      })
      .disposed(by: disposeBag)
  }
}

// MARK: - The README's View

// Port changes beyond imports and stream types (ProfileViewController):
// 1. UIKit is gone: `UIViewController`, `refreshButton.rx.tap`, `followButton.rx.isSelected`
//    → headless `Button`s; `.bind(to: followButton.rx.isSelected)` → `.subscribe(onNext:)` with
//    `MainActor.assumeIsolated`; `@MainActor`, `final` and `let reactorBinding = …` as in
//    Example 2.
// 2. `Reactor.Action.refresh` needs `typealias Reactor = ProfileViewReactor`: Cascade's `View`
//    names its associated type `ViewReactor`, so a bare `Reactor` is the `Reactor` protocol
//    ("cannot access associated type 'Action' from 'Reactor'"). And the seed's
//    `ProfileViewReactor` has no `.refresh` (it has `.refreshFollowingStatus(Int)`); the closest
//    is `.refreshFollowingStatus(userID)`. The seed's `UserViewReactor()` is its
//    `ProfileViewReactor()`.
@MainActor
private final class FollowButton {
  var isSelected = false
}

@MainActor
private final class ProfileViewController: View {
  typealias Reactor = ProfileViewReactor
  let reactorBinding = ReactorBinding<ProfileViewReactor>()
  var disposeBag = DisposeBag()

  let userID = 7
  let refreshButton = Button()
  let followButton = FollowButton()

  func bind(reactor: ProfileViewReactor) {
    // action (View -> Reactor)
    refreshButton.tap.map { [userID] in Reactor.Action.refreshFollowingStatus(userID) }
      .bind(to: reactor.action)
      .disposed(by: self.disposeBag)

    // state (Reactor -> View)
    reactor.state.map { $0.isFollowing }
      .subscribe(onNext: { [followButton] isFollowing in
        MainActor.assumeIsolated { followButton.isSelected = isFollowing }
      })
      .disposed(by: self.disposeBag)
  }
}

// MARK: - Pulse

// Port changes beyond imports and stream types (Pulse):
// 1. The seed's `Action`, `Mutation` and `initialState` are not shown and are written here
//    (`PulseReactor`: the seed calls it `MyReactor`, like two others), with a second action.
// 2. The view's `[weak self] … self?.showAlert(message)` records into `alerts`.
private final class PulseReactor: Reactor {
  enum Action {
    case alert(String)
    case doSomeAction
  }

  enum Mutation {
    case setAlertMessage(String?)
    case other
  }

  struct State {
    @Pulse var alertMessage: String?
    var other = 0
  }

  let initialState = State()

  func mutate(action: Action) -> Observable<Mutation, Never> {
    switch action {
    case .alert(let message):
      return Observable.just(Mutation.setAlertMessage(message))
    case .doSomeAction:
      return .just(.other)
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var newState = state

    switch mutation {
    case .setAlertMessage(let alertMessage):
      newState.alertMessage = alertMessage
    case .other:
      newState.other += 1
    }

    return newState
  }
}

// MARK: - The Moya comparison's reactor

/// The comparison's `userService`, faked: the profile at once.
private struct UserService: Sendable {
  func fetchProfile() -> Observable<User, Never> { .just(User(name: "Ada")) }
}

// Port changes beyond imports and stream types (the Moya comparison's `MyReactor`, named
// `ProfileReactor` here):
// 1. `final`, as for `ProfileViewReactor`.
// 2. `let initialState = State()` and `let userService = UserService()` added: the snippet leaves
//    them out (it does not compile with ReactorKit either: `initialState` has no default there).
// 3. A `reduce(state:mutation:)` added, so that the fetched profile shows. The snippet has none,
//    which ReactorKit allows (its default returns the state unchanged), and so does Cascade
//    (`withoutReduceTheStateStaysUnchanged`).
private final class ProfileReactor: Reactor {
  enum Action {
    case fetchProfile
  }
  enum Mutation {
    case setProfile(User)
  }
  struct State {
    var user: User?
  }

  let initialState = State()
  let userService = UserService()

  func mutate(action: Action) -> Observable<Mutation, Never> {
    switch action {
    case .fetchProfile:
      return userService.fetchProfile()
        .map { Mutation.setProfile($0) }
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setProfile(let user): state.user = user
    }
    return state
  }
}

/// The same reactor as the snippet has it: no `reduce`.
private final class ProfileReactorWithoutReduce: Reactor {
  enum Action {
    case fetchProfile
  }
  enum Mutation {
    case setProfile(User)
  }
  struct State {
    var user: User?
  }

  let initialState = State()
  let userService = UserService()

  func mutate(action: Action) -> Observable<Mutation, Never> {
    switch action {
    case .fetchProfile:
      return userService.fetchProfile()
        .map { Mutation.setProfile($0) }
    }
  }
}

// MARK: - Tests

@Suite(.serialized, .checksResources)
struct ReactorKitExampleTests {
  @Test func example1CounterReactor() {
    let reactor = CounterReactor()
    reactor.action.onNext(.increment)
    reactor.action.onNext(.increment)
    reactor.action.onNext(.decrement)
    #expect(reactor.currentState.count == 1)
  }

  /// The fast form (a declared `runtime`, `Mutations`) behaves as the seed's form.
  @Test @MainActor func example1InTheFastForm() async {
    let seedForm = CounterReactor()
    let fastForm = CounterReactorFastForm()
    let seedCounts = Recorder<Int>()
    let fastCounts = Recorder<Int>()
    let disposeBag = DisposeBag()
    seedForm.state.subscribe(onNext: { seedCounts.append($0.count) }).disposed(by: disposeBag)
    fastForm.state.subscribe(onNext: { fastCounts.append($0.count) }).disposed(by: disposeBag)
    for action in [CounterReactor.Action.increment, .increment, .decrement] {
      seedForm.action.onNext(action)
      fastForm.action.onNext(action)
    }
    await mainQueueDrained()  // the states are delivered on the main queue (the default)
    #expect(seedForm.currentState.count == 1)
    #expect(fastForm.currentState.count == 1)
    #expect(seedCounts.values == [0, 1, 2, 1])
    #expect(fastCounts.values == [0, 1, 2, 1])
    #expect(ReactorRuntimes.holdsRuntime(for: seedForm))
    #expect(!ReactorRuntimes.holdsRuntime(for: fastForm))
  }

  @Test @MainActor func example2CounterViewController() async {
    let view = CounterViewController()
    view.viewDidLoad()
    await mainQueueDrained()
    #expect(view.countLabel.text == "0")

    view.incrementButton.tap.onNext(())
    view.incrementButton.tap.onNext(())
    await mainQueueDrained()
    #expect(view.countLabel.text == "2")
    view.decrementButton.tap.onNext(())
    await mainQueueDrained()
    #expect(view.countLabel.text == "1")
    #expect(view.reactor?.currentState.count == 1)
    view.reactor = nil
  }

  @Test func profileViewReactorRefreshesAndFollows() {
    let scheduler = TestScheduler()
    UserAPI.scheduler.value = scheduler
    UserAPI.following.value = [7]

    let reactor = ProfileViewReactor()
    reactor.action.onNext(.refreshFollowingStatus(7))
    #expect(reactor.currentState.isFollowing == false)  // the API has not answered yet
    scheduler.advance(by: .seconds(1))
    #expect(reactor.currentState.isFollowing == true)

    reactor.action.onNext(.refreshFollowingStatus(8))
    scheduler.advance(by: .seconds(1))
    #expect(reactor.currentState.isFollowing == false)

    reactor.action.onNext(.follow(8))
    scheduler.advance(by: .seconds(1))
    #expect(reactor.currentState.isFollowing == true)

  }

  /// The README's "Reactor testing" with a stub: `reactor.isStubEnabled = true` records actions.
  @Test @MainActor func profileViewReactorStubbed() {
    let reactor = ProfileViewReactor()
    reactor.isStubEnabled = true
    reactor.action.onNext(.follow(1))
    #expect(reactor.stub.actions.count == 1)
    reactor.stub.state.value = ProfileViewReactor.State(isFollowing: true)
    #expect(reactor.currentState.isFollowing)
  }

  @Test func globalStates() {
    let currentUser = BehaviorSubject<User, Never>(User(name: "Ada"))
    let reactor = SessionReactor(currentUser: currentUser)
    #expect(reactor.currentState.user == User(name: "Ada"))
    currentUser.onNext(User(name: "Grace"))
    #expect(reactor.currentState.user == User(name: "Grace"))
  }

  /// The README's `testIsLoading`, on Cascade's `TestScheduler` (times are `Duration`s).
  ///
  /// Port changes beyond imports and stream types: `TestScheduler(initialClock: 0)` →
  /// `TestScheduler()`; virtual times `100`, `0`, `1000` → `.seconds(…)`/`.zero`; `XCTAssertEqual`
  /// → `#expect`; the reactor takes the scheduler (its `mutate` is ours). The seed's one chain,
  /// `scheduler.createHotObservable([…]).subscribe(reactor.action)`, works as written since the
  /// scheduler keeps a hot stream alive until it has played; before, the stream, held by nobody,
  /// was released at once and played nothing, and the test saw only the initial state (it took a
  /// `let refreshes = …` kept to the end, with `.refresh` spelled `MyReactor.Action.refresh`).
  @Test @MainActor func testIsLoading() {
    // given
    let scheduler = TestScheduler()
    let reactor = MyReactor(scheduler: scheduler)
    let disposeBag = DisposeBag()

    // when
    scheduler
      .createHotObservable([
        .next(.seconds(100), .refresh)  // send .refresh at 100 scheduler time
      ])
      .subscribe(reactor.action)
      .disposed(by: disposeBag)

    // then
    let response = scheduler.start(created: .zero, subscribed: .zero, disposed: .seconds(1000)) {
      reactor.state.map(\.isLoading)
    }
    #expect(
      response.events.map(\.value.element) == [
        false,  // initial state
        true,  // just after .refresh
        false,  // after refreshing
      ]
    )
  }

  @Test @MainActor func pulse() {
    let reactor = PulseReactor()
    let alerts = Recorder<String>()
    let disposeBag = DisposeBag()

    // View
    reactor.pulse(\.$alertMessage)
      .compactMap { $0 }  // filter nil
      .subscribe(onNext: { (message: String) in
        alerts.append(message)
      })
      .disposed(by: disposeBag)

    // Cases
    reactor.action.onNext(.alert("Hello"))  // showAlert() is called with `Hello`
    reactor.action.onNext(.alert("Hello"))  // showAlert() is called with `Hello`
    reactor.action.onNext(.doSomeAction)  // showAlert() is not called
    reactor.action.onNext(.alert("Hello"))  // showAlert() is called with `Hello`
    reactor.action.onNext(.alert("tokijh"))  // showAlert() is called with `tokijh`
    reactor.action.onNext(.doSomeAction)  // showAlert() is not called

    #expect(alerts.values == ["Hello", "Hello", "Hello", "tokijh"])
  }

  @Test @MainActor func theReadmeViewBindsItsReactor() {
    let scheduler = TestScheduler()
    UserAPI.scheduler.value = scheduler
    UserAPI.following.value = [7]
    let profileViewController = ProfileViewController()

    profileViewController.reactor = ProfileViewReactor()  // inject reactor
    #expect(profileViewController.followButton.isSelected == false)
    profileViewController.refreshButton.tap.onNext(())
    scheduler.advance(by: .seconds(1))
    #expect(profileViewController.followButton.isSelected == true)
    profileViewController.reactor = nil
  }

  @Test @MainActor func testAction_refresh() {
    // 1. prepare a stub reactor
    let reactor = MyReactor()
    reactor.isStubEnabled = true

    // 2. prepare a view with a stub reactor
    let view = MyView()
    view.reactor = reactor

    // 3. send an user interaction programmatically
    view.refreshControl.sendActions(for: .valueChanged)

    // 4. assert actions
    #expect(reactor.stub.actions.last == .refresh)
    view.reactor = nil
  }

  @Test @MainActor func testState_isLoading() {
    // 1. prepare a stub reactor
    let reactor = MyReactor()
    reactor.isStubEnabled = true

    // 2. prepare a view with a stub reactor
    let view = MyView()
    view.reactor = reactor

    // 3. set a stub state
    reactor.stub.state.value = MyReactor.State(isLoading: true)

    // 4. assert view properties
    #expect(view.activityIndicator.isAnimating == true)
    view.reactor = nil
  }

  @Test func testIsBookmarked() {
    let reactor = MyReactor()
    reactor.action.onNext(.toggleBookmarked)
    #expect(reactor.currentState.isBookmarked == true)
    reactor.action.onNext(.toggleBookmarked)
    #expect(reactor.currentState.isBookmarked == false)
  }

  /// The RxSwift comparison snippet, as written (`Observable.from` infers `Never`); `print`
  /// records.
  @Test func theRxSwiftComparisonChain() {
    let printed = Recorder<Int>()
    let disposeBag = DisposeBag()
    Observable.from([1, 2, 3, 4, 5])
      .filter { $0 % 2 == 0 }
      .map { $0 * 2 }
      .subscribe(onNext: { printed.append($0) })
      .disposed(by: disposeBag)
    #expect(printed.values == [4, 8])
  }

  @Test func theMoyaComparisonReactor() {
    let reactor = ProfileReactor()
    reactor.action.onNext(.fetchProfile)
    #expect(reactor.currentState.user == User(name: "Ada"))
  }

  /// The snippet as written, with neither `reduce`: as in ReactorKit, its mutations leave the
  /// state unchanged (the defaults of `reduce(state:mutation:)` and `reduce(into:mutation:)`
  /// call each other, but not for a reactor that implements neither).
  @Test func withoutReduceTheStateStaysUnchanged() {
    let reactor = ProfileReactorWithoutReduce()
    reactor.action.onNext(.fetchProfile)
    #expect(reactor.currentState.user == nil)
  }

  /// The Pulse snippet, as written (its two comparisons become expectations).
  @Test func pulseCountsAssignments() {
    var messagePulse: Pulse<String?> = Pulse(wrappedValue: "Hello tokijh")

    let oldMessagePulse: Pulse<String?> = messagePulse
    messagePulse.value = "Hello tokijh"  // add valueUpdatedCount +1

    #expect(oldMessagePulse.valueUpdatedCount != messagePulse.valueUpdatedCount)  // true
    #expect(oldMessagePulse.value == messagePulse.value)  // true
  }
}
