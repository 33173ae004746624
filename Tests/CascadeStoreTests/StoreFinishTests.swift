import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Dispatch
import Testing

/// `finish()`: the awaitable drain that tests use instead of polling.
@Suite(.checksResources)
struct StoreFinishTests {
  enum Action: Sendable, Equatable {
    case start
    case first
    case second
  }

  struct Trace: Sendable, Equatable {
    var steps: [Action] = []
  }

  /// A store whose `.start` starts a command that waits for `proceed`, then sends `.first`; its
  /// `.first` starts another command (from a subscriber) that sends `.second`.
  static func chainedStore(proceed: CascadeTestSupport.Signal) -> Store<Trace, Action> {
    let store = Store(initialState: Trace()) { (trace: inout Trace, action: Action) in
      trace.steps.append(action)
    }
    store.subscribe(on: .synchronous) { [weak store] (trace: Trace) in
      guard let store else { return }
      switch trace.steps.last {
      case .start:
        store.run("waits for proceed") { _, store in
          _ = await proceed.wait()
          store.send(.first)
        }
      case .first:
        store.run("follows the first") { _, store in store.send(.second) }
      default: break
      }
    }
    return store
  }

  // finish() waits for a command in flight, for the inputs it sends, and for the commands those
  // inputs start in turn: it returns only when the store is at rest.
  @Test func finishWaitsForCommandsAndTheWorkTheyStart() async {
    let proceed = Signal()
    let store = Self.chainedStore(proceed: proceed)
    store.send(.start)
    #expect(store.effectsInFlight == 1)
    // Fired from another task, at a time the test does not choose: finish must wait for it.
    Task { proceed.fire() }
    await store.finish()
    #expect(store.state.steps == [.start, .first, .second])
    #expect(store.effectsInFlight == 0)
  }

  // A store at rest returns at once, and finish() may be called again.
  @Test func finishOnAStoreAtRestReturnsAtOnce() async {
    let store = Store(initialState: 0) { (count: inout Int, add: Int) in count += add }
    await store.finish()
    store.send(2)
    await store.finish()
    await store.finish()
    #expect(store.state == 2)
  }

  // Inputs queued by other threads (a store that processes on its own queue) are processed
  // before finish() returns.
  @Test func finishWaitsForInputsQueuedOnTheStoresQueue() async {
    let store = Store(
      initialState: 0,
      isolation: .queue(DispatchQueue(label: "finish-queue"))
    ) { (count: inout Int, add: Int) in count += add }
    for value in 1...100 { store.send(value) }
    await store.finish()
    #expect(store.state == 5050)
  }

  // A store that shut down is at rest: finish() returns even though a command was cancelled.
  @Test func finishReturnsAfterShutdown() async {
    let store = Store(initialState: 0) { (count: inout Int, add: Int) in count += add }
    store.run("never ends") { _, _ in
      try await suspendUntilCancelled()  // the work: ended by the shutdown
    }
    await store.shutdown()
    await store.finish()
    #expect(store.effectsInFlight == 0)
    #expect(store.isShutDown)
  }

  // A command cancelled by id ends, so finish() returns, and what it would have sent is not
  // reduced.
  @Test func finishReturnsOnceACancelledCommandEnds() async {
    let store = Store(initialState: 0) { (count: inout Int, add: Int) in count += add }
    let started = Signal()
    store.run("cancelled", id: "work") { _, store in
      started.fire()
      try await suspendUntilCancelled()  // the work: ended by the cancellation
      store.send(1)
    }
    #expect(await started.wait())
    store.cancel(id: "work")
    await store.finish()
    #expect(store.state == 0)
    #expect(store.effectsInFlight == 0)
  }

  // MainStore forwards finish() to its store.
  @MainActor @Test func mainStoreFinishWaitsForItsCommands() async {
    let store = MainStore(initialState: 0) { (count: inout Int, add: Int) in count += add }
    let proceed = Signal()
    store.run("adds later") { _, store in
      _ = await proceed.wait()
      store.send(5)
    }
    Task { proceed.fire() }
    await store.finish()
    #expect(store.state == 5)
  }
}
