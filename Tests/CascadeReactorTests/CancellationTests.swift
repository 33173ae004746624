import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// Cancelling a reactor's asynchronous work: by id (`reactor.cancel(id:)`), and "latest wins"
/// (`cancelInFlight`), for `async` operations and streams alike, on virtual time.
@Suite(.checksResources)
struct CancellationTests {
  final class SearchReactor: Reactor {
    enum Action: Sendable {
      case load
      case loadStream
      case search(String)
      case searchStream(String)
    }

    enum Mutation: Sendable, Equatable {
      case loaded
      case setQuery(String)
      case setResults(String)
    }

    struct State: Sendable, Equatable {
      var loaded = false
      var query = ""
      var results: [String] = []
    }

    let initialState = State()
    let runtime = ReactorRuntime<Action, Mutation, State>()
    let clock: TestScheduler
    /// How long each query's response takes.
    let latency: @Sendable (String) -> Duration
    let failures = Counter()

    init(clock: TestScheduler, latency: @escaping @Sendable (String) -> Duration = { _ in .zero }) {
      self.clock = clock
      self.latency = latency
    }

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func mutate(action: Action) -> Mutations<Mutation> {
      let clock = clock
      let failures = failures
      switch action {
      case .load:
        return .run(id: "load") { send in
          do {
            try await clock.sleep(for: .seconds(2))
            send(.loaded)
          } catch {
            // AT-35: the handler sees the cancellation as an error it must not report.
            if !(error is CancellationError) { failures.increment() }
            throw error
          }
        }
      case .loadStream:
        return Mutations.stream(Observable.just(.loaded).delay(.seconds(2), scheduler: clock))
          .cancellable(id: "load")
      case .search(let query):
        let latency = latency(query)
        return Mutations(
          sync: [.setQuery(query)],
          async: .operation { send in
            try await clock.sleep(for: latency)
            send(.setResults(query))
          }
        )
        .cancellable(id: "search", cancelInFlight: true)
      case .searchStream(let query):
        return Mutations(
          sync: .setQuery(query),
          async: Observable.just(.setResults(query)).delay(latency(query), scheduler: clock)
        )
        .cancellable(id: "search", cancelInFlight: true)
      }
    }

    func reduce(into state: inout State, mutation: Mutation) {
      switch mutation {
      case .loaded: state.loaded = true
      case .setQuery(let query): state.query = query
      case .setResults(let results): state.results.append(results)
      }
    }
  }

  // The control for AT-24: without a cancel, the operation's result arrives at t=2.
  @Test func operationResultArrivesOnVirtualTime() async throws {
    let clock = TestScheduler()
    let reactor = SearchReactor(clock: clock)
    reactor.send(.load)
    try await clock.waitForPendingItems(1)
    await clock.advance(by: .seconds(1))
    #expect(reactor.currentState.loaded == false)
    await clock.advance(by: .seconds(1))
    await reactor.finish()  // the operation woke, sent its mutation and ended
    #expect(reactor.currentState.loaded)
    #expect(reactor.effectsInFlight == 0)
  }

  // AT-24: cancel-by-id is a barrier: the operation's output, due at t=2, never arrives when
  // `cancel(id:)` is sent at t=1 and the clock runs to completion. AT-35: the cancelled
  // operation reports nothing (no failure, no issue).
  @Test func cancelByIDIsABarrier() async throws {
    let clock = TestScheduler()
    let reactor = SearchReactor(clock: clock)
    reactor.send(.load)
    try await clock.waitForPendingItems(1)
    await clock.advance(by: .seconds(1))
    reactor.cancel(id: "load")
    await clock.run()
    // The cancelled operation has ended (its handler ran) and anything it sent was dropped.
    await reactor.finish()
    #expect(reactor.effectsInFlight == 0)
    #expect(reactor.currentState.loaded == false)
    #expect(reactor.failures.value == 0)
    #expect(clock.pendingCount == 0)
  }

  // AT-24, for a stream made cancellable with `cancellable(id:)`.
  @Test func cancelByIDEndsAStream() {
    let clock = TestScheduler()
    let reactor = SearchReactor(clock: clock)
    reactor.send(.loadStream)
    clock.advance(by: .seconds(1))
    reactor.cancel(id: "load")
    clock.run()
    #expect(reactor.currentState.loaded == false)
    #expect(clock.pendingCount == 0)
    reactor.send(.loadStream)  // the id can be used again
    clock.advance(by: .seconds(2))
    #expect(reactor.currentState.loaded == true)
  }

  // One registry for every kind of work: a stream and an operation under the same id are the
  // same key, so a latest-wins operation cancels the stream, and what it would send is dropped.
  @Test func latestWinsAcrossStreamsAndOperations() async throws {
    let clock = TestScheduler()
    let reactor = SearchReactor(clock: clock, latency: { _ in .seconds(1) })
    reactor.send(.searchStream("stream"))
    #expect(reactor.effectsInFlight == 1)
    reactor.send(.search("operation"))
    // The stream was disposed while the action was processed; the operation runs.
    #expect(reactor.effectsInFlight == 1)
    try await clock.waitForPendingItems(1)
    #expect(clock.pendingCount == 1)  // the operation's sleep: the stream's delay is gone
    await clock.advance(by: .seconds(2))
    await reactor.finish()
    #expect(reactor.currentState == SearchReactor.State(query: "operation", results: ["operation"]))
    #expect(reactor.effectsInFlight == 0)
  }

  // Shutdown cancels every effect in the registry: streams as well as tasks.
  @Test func shutdownEndsStreamsAndOperations() async throws {
    let clock = TestScheduler()
    let reactor = SearchReactor(clock: clock)
    reactor.send(.loadStream)
    reactor.send(.load)
    try await clock.waitForPendingItems(2)
    #expect(reactor.effectsInFlight == 2)
    await reactor.shutdown()
    #expect(reactor.effectsInFlight == 0)
    #expect(clock.pendingCount == 0)
    await clock.run()
    #expect(reactor.currentState.loaded == false)
    #expect(reactor.failures.value == 0)
  }

  /// a → ab → abc within 100 ms; the responses arrive in the order abc (300 ms), a (500 ms),
  /// ab (600 ms).
  static func latency(_ query: String) -> Duration {
    switch query {
    case "a": .milliseconds(500)
    case "ab": .milliseconds(550)
    default: .milliseconds(200)
    }
  }

  // AT-25 and AT-26: only the latest search's results are used; the earlier searches, whose
  // responses arrive later and out of order, are cancelled and dropped (`async` operations).
  @Test func latestSearchWins() async throws {
    let clock = TestScheduler()
    let reactor = SearchReactor(clock: clock, latency: Self.latency)
    reactor.send(.search("a"))
    try await clock.waitForPendingItems(1)
    await clock.advance(by: .milliseconds(50))
    reactor.send(.search("ab"))
    try await clock.waitForPendingItems(1)
    await clock.advance(by: .milliseconds(50))
    reactor.send(.search("abc"))
    try await clock.waitForPendingItems(1)
    #expect(clock.pendingCount == 1)  // the earlier sleeps were cancelled and removed
    await clock.advance(by: .seconds(1))
    // Every search has ended (the latest woke and sent its results; the earlier were cancelled)
    // and what they sent is applied or dropped.
    await reactor.finish()
    #expect(reactor.effectsInFlight == 0)
    #expect(reactor.currentState == SearchReactor.State(query: "abc", results: ["abc"]))
  }

  // AT-25 and AT-26, with streams: the same, synchronously on virtual time.
  @Test func latestSearchStreamWins() {
    let clock = TestScheduler()
    let reactor = SearchReactor(clock: clock, latency: Self.latency)
    reactor.send(.searchStream("a"))
    clock.advance(by: .milliseconds(50))
    reactor.send(.searchStream("ab"))
    clock.advance(by: .milliseconds(50))
    reactor.send(.searchStream("abc"))
    clock.advance(by: .seconds(1))
    #expect(reactor.currentState == SearchReactor.State(query: "abc", results: ["abc"]))
    #expect(clock.pendingCount == 0)
  }

  // Without `cancelInFlight`, work with an id runs side by side; `cancel(id:)` ends all of it.
  final class Downloads: Reactor {
    typealias Action = Int

    let initialState: [Int] = []
    let runtime = ReactorRuntime<Int, Int, [Int]>()
    let clock: TestScheduler

    init(clock: TestScheduler) {
      self.clock = clock
    }

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func mutate(action: Int) -> Mutations<Int> {
      if action < 0 { return .none }
      return Mutations.stream(
        Observable.just(action).delay(.seconds(Int64(action)), scheduler: clock)
      )
      .cancellable(id: "downloads")
    }

    func reduce(into state: inout [Int], mutation: Int) { state.append(mutation) }
  }

  @Test func cancelByIDEndsEveryStreamWithTheID() {
    let clock = TestScheduler()
    let reactor = Downloads(clock: clock)
    for seconds in 1...3 { reactor.send(seconds) }
    clock.advance(by: .seconds(1))
    #expect(reactor.currentState == [1])
    reactor.cancel(id: "downloads")
    clock.run()
    #expect(reactor.currentState == [1])
  }

  // AT-26, the queued case: a response the earlier search emitted while the reactor was busy,
  // queued behind the new search but not yet reduced, is dropped with its search.
  final class QueuedSearch: Reactor {
    enum Action: Sendable {
      case search(String)
      case poke
    }

    enum Mutation: Sendable {
      case setQuery(String)
      case setResults(String)
      case poked
    }

    struct State: Sendable, Equatable {
      var query = ""
      var results: [String] = []
      var pokes = 0
    }

    let initialState = State()
    let runtime = ReactorRuntime<Action, Mutation, State>()
    let responses = PublishSubject<String, Never>()

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func mutate(action: Action) -> Mutations<Mutation> {
      switch action {
      case .search(let query):
        return Mutations(
          sync: .setQuery(query),
          async: responses.filter { $0 == query }.map { Mutation.setResults($0) }
        )
        .cancellable(id: "search", cancelInFlight: true)
      case .poke:
        return [.poked]
      }
    }

    func reduce(into state: inout State, mutation: Mutation) {
      switch mutation {
      case .setQuery(let query): state.query = query
      case .setResults(let results): state.results.append(results)
      case .poked: state.pokes += 1
      }
    }
  }

  @Test func queuedStaleResponseIsDropped() {
    let reactor = QueuedSearch()
    reactor.send(.search("a"))
    // While the reactor is busy with `.poke`, the user types "ab" (queued), then the response to
    // "a" arrives (queued behind it).
    let subscription = reactor.state.subscribe(onNext: { state in
      guard state.pokes == 1, state.query == "a" else { return }
      reactor.send(.search("ab"))
      reactor.responses.onNext("a")
    })
    reactor.send(.poke)
    #expect(reactor.currentState.query == "ab")
    #expect(reactor.currentState.results == [])
    reactor.responses.onNext("ab")
    #expect(reactor.currentState.results.last == "ab")
    subscription.dispose()
  }
}
