import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct CommandTests {
  struct Weather: CoreState {
    var location: String?
    var forecast: String?
    var log: [String] = []

    mutating func react(to event: any CoreEvent) {
      switch event {
      case let located as Located: location = located.place
      case let forecasted as Forecasted: forecast = forecasted.text
      case let note as Note: log.append(note.text)
      default: break
      }
    }
  }

  struct Located: CoreEvent { var place: String }
  struct Forecasted: CoreEvent { var text: String }
  struct Note: CoreEvent { var text: String }

  /// Runs only once a location is known.
  struct GetWeather: Command {
    func canExecute(state: Weather) -> Bool { state.location != nil }
    var expiration: Duration { .seconds(5) }
    func execute(state: Weather, core: Core<Weather>) {
      core.fire(event: Forecasted(text: "sunny in \(state.location ?? "?")"))
    }
    func didExpire(state: Weather, core: Core<Weather>) {
      core.fire(event: Note(text: "weather expired"))
    }
  }

  @Test func commandRunsWithStateAndFiresEvents() {
    let core = Core(initialState: Weather(location: "Oslo"))
    core.fire(command: GetWeather())
    #expect(core.state.forecast == "sunny in Oslo")
  }

  // Deferred command: parked until the state allows it, then run after the input that allows it.
  @Test func parkedCommandRunsWhenStateAllows() {
    let core = Core(initialState: Weather(), scheduler: TestScheduler())
    core.fire(command: GetWeather())
    #expect(core.parkedCommandCount == 1)
    #expect(core.state.forecast == nil)
    core.fire(event: Located(place: "Lima"))
    #expect(core.state.forecast == "sunny in Lima")
    #expect(core.parkedCommandCount == 0)
  }

  // Deferred command expiry on virtual time: it expires on the store's clock, with no further
  // input arriving, and calls didExpire instead of execute.
  @Test func parkedCommandExpiresOnTheStoreClock() {
    let scheduler = TestScheduler()
    let core = Core(initialState: Weather(), scheduler: scheduler)
    core.fire(command: GetWeather())
    scheduler.advance(by: .seconds(4))
    #expect(core.parkedCommandCount == 1)
    scheduler.advance(by: .seconds(1))
    #expect(core.parkedCommandCount == 0)
    #expect(core.state.log == ["weather expired"])
    core.fire(event: Located(place: "Lima"))
    #expect(core.state.forecast == nil)
  }

  // AT-24: cancel-by-id is a barrier: the effect's output scheduled for t=2 never arrives when
  // cancel is processed at t=1.
  @Test func cancelByIDIsABarrier() async throws {
    let scheduler = TestScheduler()
    let store = Store<[String], String>(initialState: [], scheduler: scheduler) { log, action in
      log.append(action)
    }
    store.run(id: "load") { _, store in
      try await scheduler.sleep(for: .seconds(2))
      store.send("loaded")
    }
    try await scheduler.waitForPendingItems(1)
    await scheduler.advance(by: .seconds(1))
    store.cancel(id: "load")
    await scheduler.run()
    // The cancelled command has ended and everything sent so far is reduced.
    await store.finish()
    #expect(store.state == [])
    #expect(store.effectsInFlight == 0)
  }

  // AT-25 / AT-26: only the latest search's result is used, even when an earlier search had
  // already queued its result when it was cancelled.
  @Test func latestSearchWins() async throws {
    let scheduler = TestScheduler()
    let store = Store<[String], String>(initialState: [], scheduler: scheduler) { log, action in
      log.append(action)
    }
    let delays: [String: Int] = ["a": 3, "ab": 2, "abc": 1]
    let cancelled = Recorder<String>()
    for query in ["a", "ab", "abc"] {
      store.run(id: "search", cancelInFlight: true) { _, store in
        do {
          try await scheduler.sleep(for: .seconds(delays[query]!))
        } catch {
          cancelled.append(query)
          throw error
        }
        store.send("results for \(query)")
      }
    }
    // The earlier searches are past their sleeps (cancelled), so the one item left to wait for
    // is the latest search's sleep: running the clock cannot miss it.
    #expect(await cancelled.wait(forCount: 2))
    try await scheduler.waitForPendingItems(1)
    await scheduler.run()
    await store.finish()
    #expect(store.effectsInFlight == 0)
    #expect(store.state == ["results for abc"])
    #expect(cancelled.values.sorted() == ["a", "ab"])
  }

  // AT-30: a pending command cancelled by id never starts; the running one completes.
  @Test func pendingCommandCanBeCancelled() async throws {
    let scheduler = TestScheduler()
    let store = Store<[String], String>(initialState: [], scheduler: scheduler) { log, action in
      log.append(action)
    }
    store.run(id: "first") { _, store in
      try await scheduler.sleep(for: .seconds(1))
      store.send("first done")
    }
    // The running command's sleep is registered, due at 1 s. (Waited for before parking the
    // second command, whose expiry timer is an item on the same scheduler and would satisfy the
    // wait while the first command has not slept yet.)
    try await scheduler.waitForPendingItems(1)
    store.fire(command: AfterFirst(), id: "second")
    #expect(store.parkedCommandCount == 1)
    store.cancel(id: "second")
    #expect(store.parkedCommandCount == 0)
    await scheduler.advance(by: .seconds(1))
    // The first command has ended and what it sent is reduced: had the second still been
    // parked, that input would have run it.
    await store.finish()
    #expect(store.effectsInFlight == 0)
    #expect(store.parkedCommandCount == 0)
    #expect(store.state == ["first done"])
  }

  struct AfterFirst: Command {
    func canExecute(state: [String]) -> Bool { state.contains("first done") }
    func execute(state: [String], core: Store<[String], String>) { core.send("second ran") }
  }

  /// Asks the store itself whether it may run: reading `state` takes the store's lock.
  struct AsksTheStore: Command {
    let store: LockedBox<Store<[String], String>?>
    func canExecute(state: [String]) -> Bool {
      (store.value?.state ?? state).contains("go")
    }
    func execute(state: [String], core: Store<[String], String>) { core.send("ran") }
  }

  // A parked command's canExecute(state:) is the user's code, asked without the store's lock
  // (only the reducer runs under it): reading the store from it neither deadlocks nor traps.
  @Test func parkedCommandIsAskedWithoutTheStoreLock() async {
    let scheduler = TestScheduler()
    let store = Store<[String], String>(initialState: [], scheduler: scheduler) { log, action in
      log.append(action)
    }
    let box = LockedBox<Store<[String], String>?>(store)
    store.fire(command: AsksTheStore(store: box))
    #expect(store.parkedCommandCount == 1)
    // On a thread of its own, so that a deadlock fails the test instead of hanging the run.
    let finished = await runOnThreads(1, timeout: .seconds(30)) { _ in store.send("go") }
    #expect(finished)
    #expect(store.state == ["go", "ran"])
    #expect(store.parkedCommandCount == 0)
    box.value = nil
  }

  /// Notes the state it runs against, then fires a note of its own.
  struct Turn: Command {
    var name: String
    func execute(state: Weather, core: Core<Weather>) {
      core.fire(event: Note(text: "\(name) saw \(state.log)"))
    }
  }

  // What a command fires before returning completes its turn: two commands queued back to back
  // (here from a subscriber, while the store is processing) each see the other's events in
  // order, instead of the second running against a state that misses the first's note.
  @Test func eventsFiredByACommandAreReducedBeforeTheNextCommand() {
    let core = Core(initialState: Weather(), scheduler: TestScheduler())
    let fired = Counter()
    let subscription = core.subscribe(on: .synchronous) { state in
      guard state.location == "Oslo", fired.increment() == 1 else { return }
      core.fire(command: Turn(name: "first"))
      core.fire(command: Turn(name: "second"))
    }
    core.fire(event: Located(place: "Oslo"))
    #expect(core.state.log == ["first saw []", "second saw [\"first saw []\"]"])
    subscription.dispose()
  }
}
