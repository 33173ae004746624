import CascadeReactor
import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

#if canImport(Observation)
import Observation
#endif

// README.md's examples, unqualified, in a file that also imports Observation (RxSwift issue
// #2532: `Observable<Int>` stopped compiling in files importing SwiftUI or Observation, whose
// `Observable` protocol and `@Observable` macro share the name).

#if canImport(Observation)
/// A SwiftUI-style model beside Cascade's `Observable`: the macro and the protocol it conforms
/// to are Observation's, the stream type is Cascade's.
@Observable
private final class SearchModel {
  var query = ""
  var results: [String] = []
}
#endif

// MARK: - A store, in the reducer style

private enum CounterAction: Sendable {
  case increment
  case add(Int)
}

// MARK: - A reactor, as ReactorKit users write it

private final class CounterReactor: Reactor {
  enum Action: Sendable { case increase }
  enum Mutation: Sendable { case increaseValue }
  struct State: Sendable, Equatable { var value = 0 }

  let initialState = State()

  func mutate(action: Action) -> Observable<Mutation, Never> { .just(.increaseValue) }

  func reduce(into state: inout State, mutation: Mutation) { state.value += 1 }
}

// MARK: - Streams underneath it all

/// The README's `search`, faked: the results of a query, one virtual second later.
private func search(_ text: String, scheduler: TestScheduler) -> Observable<[String], Never> {
  Observable<[String], Never>.just(["\(text) 1", "\(text) 2"])
    .delay(.seconds(1), scheduler: scheduler)
}

@Suite(.checksResources)
struct ReadmeExampleTests {
  @Test func cascadeObservableBesideObservation() {
    let recorded = Recorder<Int>()
    let subscription = Observable<Int, Never>.just(1).subscribe(onNext: { recorded.append($0) })
    #expect(recorded.values == [1])
    subscription.dispose()

    #if canImport(Observation)
    let model = SearchModel()
    let changed = Recorder<String>()
    withObservationTracking {
      _ = model.query
    } onChange: {
      changed.append("query")
    }
    model.query = "swift"
    #expect(changed.values == ["query"])
    #endif
  }

  @Test func aStoreInTheReducerStyle() {
    let printed = Recorder<String>()

    let store = Store(initialState: 0) { (count: inout Int, action: CounterAction) in
      switch action {
      case .increment: count += 1
      case .add(let amount): count += amount
      }
    }
    // count: 0
    let subscription = store.subscribe(on: .synchronous) { printed.append("count: \($0)") }
    store.send(.increment)  // count: 1

    #expect(printed.values == ["count: 0", "count: 1"])
    store.send(.add(41))
    #expect(printed.values.last == "count: 42")
    subscription.dispose()
  }

  @Test @MainActor func aReactorAsReactorKitUsersWriteIt() {
    let reactor = CounterReactor()
    reactor.action.onNext(.increase)
    #expect(reactor.currentState.value == 1)
  }

  /// The README's chain on virtual time: `MainScheduler.instance` is the one thing replaced (by
  /// the test's scheduler), as the README's own test example does; `print` records instead.
  @Test func streamsUnderneathItAll() {
    let scheduler = TestScheduler()
    let printed = Recorder<[String]>()

    let query = PublishSubject<String, Never>()
    let bag = DisposeBag()

    query
      .map { $0.lowercased() }
      .filter { !$0.isEmpty }
      .distinctUntilChanged()
      .debounce(.milliseconds(300), scheduler: scheduler)
      .flatMapLatest { text in search(text, scheduler: scheduler) }  // a new query cancels the
      // previous search
      .subscribe(onNext: { results in printed.append(results) })
      .disposed(by: bag)

    query.onNext("swift")
    scheduler.advance(by: .milliseconds(300))
    query.onNext("Swift")  // the same once lowercased: no new search
    query.onNext("Cascade")
    scheduler.advance(by: .milliseconds(500))  // the search for "swift" is still running
    query.onNext("")  // filtered out
    scheduler.advance(by: .seconds(2))

    // "swift"'s search was cancelled by "cascade" before it answered.
    #expect(printed.values == [["cascade 1", "cascade 2"]])
    _ = bag
  }

  @Test func debouncesTyping() {
    let scheduler = TestScheduler()
    let typed = PublishSubject<String, Never>()
    let observer = scheduler.createObserver(String.self)
    let subscription = typed.debounce(.milliseconds(300), scheduler: scheduler).subscribe(observer)

    typed.onNext("s")
    scheduler.advance(by: .milliseconds(100))
    typed.onNext("sw")
    scheduler.advance(by: .milliseconds(300))

    #expect(observer.events == [.next(.milliseconds(400), "sw")])
    subscription.dispose()
  }
}
