import CascadeStore
import Synchronization

/// W4, effect round trip: an action starts an asynchronous side effect that sends an action
/// back; the round trip ends when that result is reduced.
///
/// - **W4** runs N round trips one after another, each starting when the previous result has
///   been reduced.
/// - **W4b** starts N at once and is timed until all N results are reduced.
///
/// The Store's idiom is a command: `store.run { state, store in store.send(.done) }`, which the
/// store runs in a task it tracks. The driver is an async task (the harness blocks on it); it
/// waits for each result with a continuation resumed by a `.synchronous` subscriber of the done
/// count. Each run ends with `shutdown(cancellingCommands: false)`, which waits for the
/// commands' tasks to finish, as the plain column waits for its tasks.
///
/// The plain column's idiom is a task that returns the action, reduced by the driver into a
/// ``PlainStore`` it alone touches: `store.send(await Task { await effect() }.value)` in
/// sequence, and a task group for the burst.
///
/// Both count the results reduced (N at the end, checked) and the subscriber's callbacks
/// (N + 1: the initial 0, then 1 through N).
enum W4 {
  static let sequential = Workload(
    id: "W4",
    name: "effect round trips, sequential",
    n: 100_000,
    quickN: 2_000
  )
  static let burst = Workload(
    id: "W4b",
    name: "effect round trips, N at once",
    n: 100_000,
    quickN: 2_000
  )

  struct State: Sendable {
    var done = 0
  }

  enum Action: Sendable {
    case done
  }

  static func makeReducer() -> @Sendable (inout State, Action) -> Void {
    let reducer: @Sendable (inout State, Action) -> Void = { state, action in
      switch action {
      case .done: state.done &+= 1
      }
    }
    return opaque(reducer)
  }

  /// The side effect of the plain column: returns the action to send back.
  static func makeEffect() -> @Sendable () async -> Action {
    let effect: @Sendable () async -> Action = { .done }
    return opaque(effect)
  }

  /// The command of the Store column: sends the action back.
  static func makeCommand() -> @Sendable (State, Store<State, Action>) async throws -> Void {
    let command: @Sendable (State, Store<State, Action>) async throws -> Void = { _, store in
      store.send(.done)
    }
    return opaque(command)
  }

  static func expected(_ n: Int) -> Checksum {
    Checksum(count: n + 1, sum: n &* (n &+ 1) / 2, last: n)
  }

  static let cells = [
    Cell(sequential, .plain, expected: expected) { n in
      try runBlocking { await plainSequential(n) }
    },
    Cell(sequential, .plain, variant: sameHops, expected: expected) { n in
      try runBlocking { await plainSequentialWithTheStoresHops(n) }
    },
    Cell(
      sequential,
      .store,
      expected: expected,
      goal: .maximumRatio(2, to: .plain, variant: sameHops)
    ) { n in
      try runBlocking { try await storeSequential(n) }
    },
    reactorCells[0],
    feedbackCells[0],
    Cell(burst, .plain, expected: expected) { n in
      try runBlocking { await plainBurst(n) }
    },
    Cell(burst, .store, expected: expected) { n in
      try runBlocking { try await storeBurst(n) }
    },
    reactorCells[1],
    feedbackCells[1],
  ]

  // MARK: Plain

  static func plainSequential(_ n: Int) async -> Checksum {
    let tally = Tally()
    let effect = makeEffect()
    let store = PlainStore(initialState: State(), reducer: makeReducer())
    let select = opaque { @Sendable (state: State) in state.done }
    let record = opaque { @Sendable (value: Int) in tally.record(value) }
    store.subscribe(select: select, record)
    Operations.begin()
    for _ in 0..<n {
      store.send(await Task { await effect() }.value)
    }
    Operations.end()
    return tally.checksum
  }

  /// The variant of the plain round trip that makes the Store's thread hops.
  static let sameHops = "Task.immediate, a lock and a continuation: the Store's thread hops"

  /// The plain round trip made as the Store makes it.
  ///
  /// The effect starts in a task that runs at
  /// once on the driver's thread (`Task.immediate`, as `store.run` starts a command), sends its
  /// action to a store behind a lock (the Store's is thread-safe too), whose subscriber resumes
  /// the driver's continuation (the ``Waiter``, as the Store column's): the driver then goes
  /// on wherever the executor resumes it. ``plainSequential(_:)`` awaits `Task { … }.value`
  /// instead, which hops to another thread and back but takes no lock and no continuation of
  /// its own.
  static func plainSequentialWithTheStoresHops(_ n: Int) async -> Checksum {
    let tally = Tally()
    let waiter = Waiter()
    let effect = makeEffect()
    let store = LockedPlainStore(PlainStore(initialState: State(), reducer: makeReducer()))
    let select = opaque { @Sendable (state: State) in state.done }
    let record = opaque { @Sendable (value: Int) in
      tally.record(value)
      waiter.reached(value)
    }
    store.guarded.withLock { $0.subscribe(select: select, record) }
    Operations.begin()
    for done in 1..<(n + 1) {
      await waiter.wait(until: done) {
        Task.immediate {
          let action = await effect()
          store.guarded.withLock { $0.send(action) }
        }
      }
    }
    Operations.end()
    return tally.checksum
  }

  static func plainBurst(_ n: Int) async -> Checksum {
    let tally = Tally()
    let effect = makeEffect()
    let store = PlainStore(initialState: State(), reducer: makeReducer())
    let select = opaque { @Sendable (state: State) in state.done }
    let record = opaque { @Sendable (value: Int) in tally.record(value) }
    store.subscribe(select: select, record)
    Operations.begin()
    await withTaskGroup(of: Action.self) { group in
      for _ in 0..<n {
        group.addTask { await effect() }
      }
      for await action in group {
        store.send(action)
      }
    }
    Operations.end()
    return tally.checksum
  }

  // MARK: Store

  static func storeSequential(_ n: Int) async throws -> Checksum {
    let (store, tally, waiter) = makeStore()
    let command = makeCommand()
    Operations.begin()
    for done in 1..<(n + 1) {
      await waiter.wait(until: done) { store.run("W4", command) }
    }
    Operations.end()
    return try await finish(store, tally, n: n)
  }

  static func storeBurst(_ n: Int) async throws -> Checksum {
    let (store, tally, waiter) = makeStore()
    let command = makeCommand()
    Operations.begin()
    await waiter.wait(until: n) {
      for _ in 0..<n { store.run("W4", command) }
    }
    Operations.end()
    return try await finish(store, tally, n: n)
  }

  /// A store whose synchronous subscriber records the done count and reports it to a waiter.
  static func makeStore() -> (Store<State, Action>, Tally, Waiter) {
    let tally = Tally()
    let waiter = Waiter()
    let store = Store(initialState: State(), reducer: makeReducer())
    store.subscribe(
      select: opaque { @Sendable (state: State) in state.done },
      on: .synchronous,
      opaque { @Sendable (value: Int) in
        tally.record(value)
        waiter.reached(value)
      }
    )
    return (store, tally, waiter)
  }

  /// Waits for the commands' tasks to end and checks that every result was reduced.
  static func finish(_ store: Store<State, Action>, _ tally: Tally, n: Int) async throws -> Checksum
  {
    await store.shutdown(cancellingCommands: false)
    try check(store.state.done == n, "\(store.state.done) results reduced, expected \(n)")
    try check(store.effectsInFlight == 0, "\(store.effectsInFlight) commands still in flight")
    return tally.checksum
  }
}

/// A ``PlainStore`` behind a lock, which owns it: what an app writes for a store that several
/// threads send to.
final class LockedPlainStore<State, Action>: Sendable {
  let guarded: Mutex<PlainStore<State, Action>>

  init(_ store: sending PlainStore<State, Action>) {
    guarded = Mutex(store)
  }
}
