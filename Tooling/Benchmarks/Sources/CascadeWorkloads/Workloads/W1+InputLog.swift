import CascadeStore
import CascadeStreams

/// W1's Store column with the architecture's log of inputs open, as the live inspector
/// (`rpg --inspect`) has it: what inspecting an app costs its thread per input.
///
/// The store appends each action to the log (`MiddlewareHost.openLog(wake:)`), on the sending
/// thread; a middleware's thread would take them in batches. Here the sending loop takes them
/// itself, every 1,000 actions, and gives them back (`MiddlewareLog.giveBack(_:)`), so that the
/// cell runs on one thread, as callgrind counts it.
extension W1 {
  /// Opens the log as it is attached, and takes from it when asked.
  final class LogTaker: Middleware, Sendable {
    typealias Input = Action
    typealias State = W1.State

    let log = LockedValue<MiddlewareLog<Action, State>?>(nil)

    var interceptsInputs: Bool { false }
    var processesInputs: Bool { false }

    func attached(to host: MiddlewareHost<Action, State>) {
      let opened = host.openLog(wake: {})
      log.withLock { $0 = opened }
    }

    /// Takes what was logged since the last take, and gives it back.
    func takeAll() {
      guard let log = log.withLock({ $0 }) else { return }
      log.giveBack(log.take().entries)
    }
  }

  static let inputLogCell = Cell(
    workload,
    .store,
    variant: "its input log open, as the live inspector has it, taken every 1,000 actions",
    expected: expected,
    run: runStoreWithInputLog
  )

  static func runStoreWithInputLog(n: Int) throws -> Checksum {
    let taker = LogTaker()
    let store = Store(initialState: State(), middlewares: [taker], reducer: makeReducer())
    return try measure(store, n: n) { dispatch(n: n, to: $0, takingWith: taker) }
  }

  @inline(never)
  static func dispatch(n: Int, to store: Store<State, Action>, takingWith taker: LogTaker) {
    for index in 0..<n {
      store.send(.increment)
      if index % 1_000 == 999 { taker.takeAll() }
    }
  }
}
