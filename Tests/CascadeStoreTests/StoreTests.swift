import CascadeMiddleware
import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct StoreTests {
  enum CounterAction: Sendable, Equatable {
    case increment
    case add(Int)
  }

  static func counter() -> Store<Int, CounterAction> {
    Store(initialState: 0) { count, action in
      switch action {
      case .increment: count += 1
      case .add(let amount): count += amount
      }
    }
  }

  @Test func reducerStyleProcessesActionsSynchronously() {
    let store = Self.counter()
    store.send(.increment)
    store.send(.add(10))
    #expect(store.state == 11)
  }

  @Test func subscriberGetsCurrentStateThenUpdates() {
    let store = Self.counter()
    let seen = Recorder<Int>()
    let subscription = store.subscribe(on: .synchronous) { seen.append($0) }
    store.send(.increment)
    store.send(.increment)
    subscription.dispose()
    store.send(.increment)
    #expect(seen.values == [0, 1, 2])
    #expect(store.subscriptionCount == 0)
  }

  @Test func equatableSelectionSkipsRepeats() {
    let store = Self.counter()
    let seen = Recorder<Bool>()
    let subscription = store.subscribe(select: { $0 >= 2 }, on: .synchronous) { seen.append($0) }
    for _ in 0..<4 { store.send(.increment) }
    subscription.dispose()
    #expect(seen.values == [false, true])
  }

  @Test func statesStreamAndSelect() {
    let store = Self.counter()
    let states = Recorder<Int>()
    let evens = Recorder<Bool>()
    let a = store.states.subscribe(onNext: { states.append($0) })
    let b = store.select { $0.isMultiple(of: 2) }.subscribe(onNext: { evens.append($0) })
    store.send(.increment)
    store.send(.add(2))
    a.dispose()
    b.dispose()
    #expect(states.values == [0, 1, 3])
    #expect(evens.values == [true, false])
  }

  @Test func scopedStoreReadsAndSendsThroughParent() {
    struct App: Sendable {
      var count = 0
      var name = "cascade"
    }
    enum AppAction: Sendable { case counter(CounterAction) }
    let store = Store<App, AppAction>(initialState: App()) { app, action in
      switch action {
      case .counter(.increment): app.count += 1
      case .counter(.add(let amount)): app.count += amount
      }
    }
    let scoped = store.scope(state: \.count, action: AppAction.counter)
    scoped.send(.add(5))
    #expect(scoped.state == 5)
    #expect(store.state.count == 5)
    let seen = Recorder<Int>()
    let subscription = scoped.states.subscribe(onNext: { seen.append($0) })
    scoped.send(.increment)
    subscription.dispose()
    #expect(seen.values == [5, 6])
  }

  // AT-16: an action sent from inside the reducer is reduced right after, never nested.
  @Test func sendFromReducerRunsBackToBack() {
    let log = Recorder<String>()
    let box = LockedBox<Store<Int, String>?>(nil)
    let store = Store<Int, String>(initialState: 0) { count, action in
      log.append("enter \(action)")
      if action == "A" { box.value?.send("B") }
      count += 1
      log.append("exit \(action)")
    }
    box.value = store
    store.send("A")
    #expect(log.values == ["enter A", "exit A", "enter B", "exit B"])
    #expect(store.state == 2)
    box.value = nil
  }

  // AT-16 with the reject policy: the reentrant action is dropped and reported.
  @Test func rejectPolicyDropsAndReports() {
    let diagnostics = Recorder<String>()
    let box = LockedBox<Store<Int, String>?>(nil)
    let store = Store<Int, String>(
      initialState: 0,
      reentrancy: .reject,
      diagnostics: { diagnostics.append($0.description) }
    ) { count, action in
      if action == "A" { box.value?.send("B") }
      count += 1
    }
    box.value = store
    store.send("A")
    #expect(store.state == 1)
    #expect(
      diagnostics.values == [
        "Reentrant send of B while processing A: rejected (ReentrancyPolicy.reject)"
      ]
    )
    box.value = nil
  }

  // The reducer runs under the store's lock, and a send from inside it never deadlocks: it is
  // recognized as reentrant without taking the lock again and handled by the policy (queued,
  // queued and reported, or dropped and reported). Run on a thread of its own, so that a
  // deadlock fails the test instead of hanging the run.
  @Test(arguments: [ReentrancyPolicy.queue, .report, .reject])
  func sendFromReducerUnderTheLockNeverDeadlocks(policy: ReentrancyPolicy) async {
    let diagnostics = Recorder<String>()
    let box = LockedBox<Store<[String], String>?>(nil)
    let store = Store<[String], String>(
      initialState: [],
      reentrancy: policy,
      diagnostics: { diagnostics.append($0.description) }
    ) { log, action in
      log.append(action)
      if action == "A" {
        box.value?.send("B")
        log.append("A done")
      }
    }
    box.value = store
    let finished = await runOnThreads(1, timeout: .seconds(30)) { _ in store.send("A") }
    #expect(finished)
    switch policy {
    case .queue:
      #expect(store.state == ["A", "A done", "B"])
      #expect(diagnostics.values.isEmpty)
    case .report:
      #expect(store.state == ["A", "A done", "B"])
      #expect(diagnostics.values.count == 1)
    case .reject:
      #expect(store.state == ["A", "A done"])
      #expect(diagnostics.values.count == 1)
    }
    box.value = nil
  }

  // AT-17: a subscriber that sends B on seeing state(A): every subscriber sees state(A) before
  // any sees state(A+B), and none sees them out of order.
  @Test func sendFromSubscriberIsSerialized() {
    let store = Store<[String], String>(initialState: []) { log, action in log.append(action) }
    let first = Recorder<[String]>()
    let second = Recorder<[String]>()
    let order = Recorder<String>()
    let a = store.subscribe(on: .synchronous) { state in
      first.append(state)
      order.append("1:\(state.joined())")
      if state == ["A"] { store.send("B") }
    }
    let b = store.subscribe(on: .synchronous) { state in
      second.append(state)
      order.append("2:\(state.joined())")
    }
    store.send("A")
    #expect(first.values == [[], ["A"], ["A", "B"]])
    #expect(second.values == [[], ["A"], ["A", "B"]])
    #expect(order.values == ["1:", "2:", "1:A", "2:A", "1:AB", "2:AB"])
    a.dispose()
    b.dispose()
  }

  // AT-17's routing case: "dismiss, then present" ends presented.
  @Test func dismissThenPresentRouting() {
    enum Route: Sendable { case dismiss, present }
    let store = Store<Bool, Route>(initialState: true) { presented, route in
      presented = route == .present
    }
    let subscription = store.subscribe(on: .synchronous) { presented in
      if !presented { store.send(.present) }
    }
    store.send(.dismiss)
    #expect(store.state)
    subscription.dispose()
  }

  // AT-20: output of a running effect emitted during a reduce is reduced after it, and sees the
  // state the reduce left.
  @Test func effectOutputDuringReduceIsBuffered() {
    struct Flags: Sendable {
      var flag = false
      var seenByEffect: [Bool] = []
    }
    enum Action: Sendable { case tap, effectOutput }
    let subject = PublishSubject<Void, Never>()
    let box = LockedBox<Store<Flags, Action>?>(nil)
    let store = Store<Flags, Action>(initialState: Flags()) { state, action in
      switch action {
      case .tap:
        state.flag = true
        subject.onNext()
        state.flag = false
      case .effectOutput:
        state.seenByEffect.append(state.flag)
      }
    }
    box.value = store
    let effect = subject.subscribe(onNext: { box.value?.send(.effectOutput) })
    store.send(.tap)
    #expect(store.state.seenByEffect == [false])
    effect.dispose()
    box.value = nil
  }

  // AT-19: middleware decoration order, dispatch from middleware (reduced after the input that
  // triggered it), state access, a guarded self-dispatch that ends, no-op after release.
  @Test func middlewareDecoratesAndDispatches() {
    struct Decorate: Middleware {
      let tag: String
      func intercept(_ input: String, state: [String]) -> String? { input + tag }
    }
    struct DispatchOnY: Middleware {
      let seenStates: Recorder<[String]>
      func process(_ record: MiddlewareRecord<String, [String]>) {
        seenStates.append(record.state)
        if record.input.hasPrefix("Y") { record.dispatcher.dispatch("X") }
      }
    }
    let seen = Recorder<[String]>()
    var store: Store<[String], String>? = Store(
      initialState: [],
      middlewares: [Decorate(tag: "1"), Decorate(tag: "2"), DispatchOnY(seenStates: seen)]
    ) { log, action in log.append(action) }
    store?.send("Y")
    #expect(store?.state == ["Y12", "X12"])
    #expect(seen.values == [["Y12"], ["Y12", "X12"]])
    weak let weakStore = store
    store = nil
    #expect(weakStore == nil)
  }
}

/// The README's store example, verbatim, so the front page cannot rot.
@Suite(.checksResources)
struct ReadmeStoreExampleTests {
  enum CounterAction: Sendable {
    case increment
    case add(Int)
  }

  @Test func readmeCounter() {
    let printed = Recorder<String>()
    let store = Store(initialState: 0) { (count: inout Int, action: CounterAction) in
      switch action {
      case .increment: count += 1
      case .add(let amount): count += amount
      }
    }
    let subscription = store.subscribe(on: .synchronous) { printed.append("count: \($0)") }
    store.send(.increment)
    #expect(printed.values == ["count: 0", "count: 1"])
    subscription.dispose()
  }

  // A whole-state subscription keeps no reference to the state between updates, so the reducer
  // keeps mutating the same storage in place (no copy of a large state per input).
  @Test func aStateSubscriptionKeepsNoCopyOfTheState() {
    let store = Store<[Int], Int>(initialState: [Int](repeating: 0, count: 10_000)) {
      cells,
      index in cells[index] += 1
    }
    let subscription = store.states.subscribe(onNext: { _ in })
    func address() -> UnsafeRawPointer? {
      store.state.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }
    store.send(0)
    let before = address()
    for index in 1..<100 { store.send(index) }
    #expect(address() == before)
    #expect(store.state[0..<100].allSatisfy { $0 == 1 })
    subscription.dispose()
  }
}
