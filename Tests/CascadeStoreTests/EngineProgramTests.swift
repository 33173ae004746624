import CascadeStreams
import Synchronization
import Testing

@testable import CascadeStore

/// An architecture's program on the store engine (`EngineProgram`), the way a reactor runs on
/// it: the step returns the reductions of an input, the engine reduces them in order, notifies
/// after each, then hands the later work back to start — without the program calling back into
/// the engine.
struct EngineProgramTests {
  enum Input: Sendable, Equatable {
    /// Stepped into `value(n)`, `value(n + 1)` and, with `later`, work carrying `n`.
    case action(Int, later: Bool)
    /// Reduced as it is.
    case value(Int)
  }

  /// The object the step and the reductions are for (a reactor, in CascadeReactor).
  final class Owner: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
  }

  /// A program's later work (a reactor's asynchronous mutations).
  final class Later: Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
  }

  /// What the program saw, in order.
  final class Trace: Sendable {
    let events = Mutex<[String]>([])
    func record(_ event: String) { events.withLock { $0.append(event) } }
    var all: [String] { events.withLock { $0 } }
  }

  static func name(of sender: StepSender) -> String {
    sender.with { ($0 as? Owner)?.name ?? "?" }
  }

  static func makeStore(trace: Trace, found: Owner?) -> Store<[Int], Input> {
    Store(
      initialState: [],
      middlewares: [],
      isolation: .callerThread,
      reentrancy: .queue,
      scheduler: ImmediateScheduler.instance,
      diagnostics: nil,
      reducer: { state, input in
        if case .value(let value) = input { state.append(-value) }
      },
      program: EngineProgram(
        step: { input, sender, isReplay in
          let by = sender.map(name(of:)) ?? "none"
          trace.record("step \(input) by \(by)\(isReplay ? " replayed" : "")")
          switch input {
          case .action(let n, let later):
            if isReplay { return .none }
            return .general(
              .many([.value(n), .value(n + 1)]),
              later: later ? Later(n) : nil,
              owner: sender == nil ? found : nil
            )
          case .value:
            if sender != nil { return .one(input) }
            guard let found else { return .none }
            return .owned(input, owner: found)
          }
        },
        reduce: { state, input, owner in
          guard case .value(let value) = input else { return }
          trace.record("reduce \(value) for \(name(of: owner))")
          state.append(value)
        },
        start: { later, input, owner in
          let value = (later as? Later)?.value ?? -1
          trace.record("start \(value) for \(name(of: owner)) after \(input)")
        }
      )
    )
  }

  @Test("the step's inputs are reduced in order and notified, then the later work starts")
  func reducesThenStarts() {
    let trace = Trace()
    let store = Self.makeStore(trace: trace, found: nil)
    let subscription = store.subscribe(on: .synchronous) { trace.record("state \($0)") }
    let sender = Owner("sender")
    withExtendedLifetime(sender) {
      store.engine.send(.action(1, later: true), sender: StepSender(sender))
    }
    #expect(
      trace.all == [
        "state []",
        "step action(1, later: true) by sender",
        "reduce 1 for sender", "state [1]",
        "reduce 2 for sender", "state [1, 2]",
        "start 1 for sender after action(1, later: true)",
      ]
    )
    subscription.dispose()
  }

  @Test("an input without a sender is reduced for the owner its step found")
  func ownerFoundByTheStep() {
    let trace = Trace()
    let found = Owner("found")
    let store = Self.makeStore(trace: trace, found: found)
    store.send(.value(7))
    store.send(.action(3, later: false))
    #expect(
      trace.all == [
        "step value(7) by none", "reduce 7 for found",
        "step action(3, later: false) by none", "reduce 3 for found", "reduce 4 for found",
      ]
    )
    #expect(store.state == [7, 3, 4])
  }

  @Test("a step that returns nothing reduces nothing and notifies no one")
  func nothingToReduce() {
    let trace = Trace()
    let store = Self.makeStore(trace: trace, found: nil)
    let subscription = store.subscribe(on: .synchronous) { trace.record("state \($0)") }
    store.send(.value(5))
    #expect(trace.all == ["state []", "step value(5) by none"])
    #expect(store.state == [])
    subscription.dispose()
  }

  @Test("a replayed input is stepped as replayed, and its step starts nothing")
  func replay() async {
    let trace = Trace()
    let found = Owner("found")
    let store = Self.makeStore(trace: trace, found: found)
    await store.replay([.action(1, later: true), .value(9)])
    #expect(
      trace.all == [
        "step action(1, later: true) by none replayed",
        "step value(9) by none replayed", "reduce 9 for found",
      ]
    )
    #expect(store.state == [9])
  }
}
