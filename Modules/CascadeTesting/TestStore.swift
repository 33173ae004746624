public import CascadeStore
import CascadeStreams
import IssueReporting

/// A store for tests that makes them exhaustive: every state change and every action sent back
/// by a command must be asserted, and no command may be left running (AT-33).
///
/// A test store runs a real `Store` and watches it process. Each `send` states the change its
/// action makes, by mutating a copy of the state before it; each action that commands (or
/// middlewares) send back is asserted, in order, with `receive`, which waits for it; `finish`
/// checks that nothing is left.
///
/// ```swift
/// @Test func loadsTheCount() async {
///   let clock = TestScheduler()
///   let store = TestStore(initialState: Counter(), clock: clock, reducer: Counter.reduce)
///
///   await store.send(.load) { $0.isLoading = true }
///   store.run("load") { _, handle in
///     try await clock.sleep(for: .seconds(2))
///     handle.send(.loaded(3))
///   }
///   await store.receive(.loaded(3), within: .seconds(2)) {
///     $0.isLoading = false
///     $0.count = 3
///   }
///   await store.finish()
/// }
/// ```
///
/// **Failures.** The test store reports a failure through IssueReporting (so under Swift Testing
/// and XCTest alike), at the assertion's source location, when:
///
/// 1. the state after an action differs from the expectation (with a CustomDump diff);
/// 2. the state changed, but the `send` or `receive` asserted no change;
/// 3. a change was asserted, but the state did not change;
/// 4. an action was received but not asserted, by the next `send`, by `finish`, or when the test
///    store is released;
/// 5. `receive` waited for an action that never came (naming it), or a different action came;
/// 6. a command is still running at `finish` (or when the test store is released), named with
///    the action processed just before it started;
/// 7. an assertion closure throws.
///
/// With ``exhaustivity`` set to ``Exhaustivity/off``, a test asserts only what matters to it:
/// 2, 4 and 6 are skipped (and listed in ``skippedAssertions``), and 1 and 3 check only the
/// fields the closure sets.
///
/// **Received actions.** Every action the store reduces that the test store did not send
/// itself is *received*: those that commands send back through their handle, that middlewares
/// dispatch, that subscribers send, or that the test sends straight to ``store``.
///
/// **Waiting.** `receive` waits for its action in virtual time and in real time. On the test
/// store's ``clock`` (a ``TestScheduler``) it advances virtual time, one due item at a time, by
/// at most its `within` budget (default zero, for tests that move the clock themselves), and
/// stops where the action arrived. In real time it waits for command tasks to run (a task the
/// clock has woken still needs a thread): it wakes on each action the store reduces, each
/// command that ends and each item scheduled on the clock (a command going to sleep on it), never
/// by polling, and gives up after ``timeout`` (60 seconds by default), a bound that only turns a
/// hang into a failure. It stops at once, and fails, when no command is in flight or waiting and
/// nothing is due on the clock within the budget; when it fails, the clock has moved by the whole
/// budget. `finish` waits in real time only, the same way, for the commands in flight to end.
///
/// Use a test store from one task at a time: each assertion awaits the one before.
public final class TestStore<State: Sendable & Equatable, Action: Sendable>: Sendable {
  /// The store under test, to hand to the code being tested.
  ///
  /// Actions sent to it directly count as received.
  public let store: Store<State, Action>

  /// The virtual clock that `receive` may advance, if the test store has one.
  public let clock: TestScheduler?

  let log = TestStoreLog<State, Action>()
  let creation: CallSite

  /// Creates a test store running a new store with `reducer`.
  ///
  /// ```swift
  /// let store = TestStore(initialState: Counter(), reducer: Counter.reduce)
  /// ```
  ///
  /// - Parameters:
  ///   - initialState: The state before any action.
  ///   - clock: A virtual clock: the store's scheduler (for command expiry), and the clock
  ///     `receive` advances while it waits. Pass the same clock to the code under test, for
  ///     its `sleep(for:)`.
  ///   - fileID: The file ID of the caller, where failures found on release are reported.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  ///   - column: The column of the caller.
  ///   - reducer: Updates the state in place for an action.
  public convenience init(
    initialState: State,
    clock: TestScheduler? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    reducer: @escaping @Sendable (inout State, Action) -> Void
  ) {
    let scheduler: any Scheduler = clock ?? ConcurrentDispatchQueueScheduler()
    self.init(
      Store(initialState: initialState, scheduler: scheduler, reducer: reducer),
      clock: clock,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// Creates a test store around `store`, for a store built with middlewares or other options.
  ///
  /// The test store watches what `store` processes from now on; its state now is the state
  /// before the first assertion. Watch a store with one test store at a time.
  ///
  /// ```swift
  /// let clock = TestScheduler()
  /// let store = TestStore(
  ///   Store(
  ///     initialState: Search(),
  ///     middlewares: [Analytics()],
  ///     scheduler: clock,
  ///     reducer: Search.reduce
  ///   ),
  ///   clock: clock
  /// )
  /// ```
  ///
  /// - Parameters:
  ///   - store: The store under test.
  ///   - clock: The virtual clock `receive` may advance while it waits.
  ///   - fileID: The file ID of the caller, where failures found on release are reported.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  ///   - column: The column of the caller.
  public init(
    _ store: Store<State, Action>,
    clock: TestScheduler? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.store = store
    self.clock = clock
    creation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    store.install(probe: log.probe)
    clock?.signalOnSchedule(log.changes)
  }

  deinit {
    reportLeftovers(at: creation, when: "when the test store was released")
  }

  // MARK: - Configuration

  /// How strictly the test is checked; ``Exhaustivity/on`` by default.
  public var exhaustivity: Exhaustivity {
    get { log.withLock { $0.exhaustivity } }
    set { log.withLock { $0.exhaustivity = newValue } }
  }

  /// How long `receive` and `finish` wait at most, in real time, for commands in flight; 60
  /// seconds by default.
  ///
  /// The waits end as soon as the awaited action arrives or the commands end, so the bound only
  /// decides how long a test that would hang takes to fail; it is generous so that a loaded
  /// machine, whose threads run the commands' tasks late, never fails a correct test. Lower it in
  /// tests of a failure that waits it out.
  public var timeout: Duration {
    get { log.withLock { $0.timeout } }
    set { log.withLock { $0.timeout = newValue } }
  }

  /// The assertions skipped in non-exhaustive mode so far, one message each, in order.
  public var skippedAssertions: [String] { log.withLock { $0.skipped } }

  // MARK: - The store

  /// The store's current state.
  public var state: State { store.state }

  /// Runs `operation` as an asynchronous command of the store; see
  /// `Store.run(_:id:cancelInFlight:_:)`.
  ///
  /// - Parameters:
  ///   - name: Names the command in failures ("a command is still running").
  ///   - id: An id to cancel it by with ``cancel(id:)``.
  ///   - cancelInFlight: Whether to cancel the commands in flight with the same `id` first.
  ///   - operation: The work, with a copy of the state and a handle to send actions through.
  public func run(
    _ name: String = "run",
    id: (any Hashable & Sendable)? = nil,
    cancelInFlight: Bool = false,
    _ operation: @escaping @Sendable (State, Store<State, Action>) async throws -> Void
  ) {
    store.run(name, id: id, cancelInFlight: cancelInFlight, operation)
  }

  /// Fires a command at the store.
  public func fire<C: Command>(command: C) where C.CommandState == State, C.Action == Action {
    store.fire(command: command)
  }

  /// Fires an asynchronous command at the store.
  public func fire<C: AsyncCommand>(command: C)
  where C.CommandState == State, C.Action == Action {
    store.fire(command: command)
  }

  /// Cancels the store's commands started with `id`.
  public func cancel(id: some Hashable & Sendable) {
    store.cancel(id: id)
  }

  // MARK: - Sending

  /// Sends `action` and asserts the state change it makes.
  ///
  /// `updateStateToExpectedResult` receives the state as it was just before the action and
  /// mutates it into the state expected after; the test fails, with a diff, unless the store's
  /// state after the action is exactly that. Without a closure, the action must not change the
  /// state.
  ///
  /// ```swift
  /// await store.send(.increment) { $0.count = 1 }
  /// ```
  ///
  /// In exhaustive mode, actions received before and not asserted yet fail the test here.
  ///
  /// - Parameters:
  ///   - action: The action to send.
  ///   - updateStateToExpectedResult: Turns the state before into the state expected after.
  ///   - fileID: The file ID of the caller.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  ///   - column: The column of the caller.
  public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let label = "send(\(describe(action)))"
    await store.settle()
    reportUnassertedReceived(before: label, at: site)
    let mark = log.withLock { contents in
      defer { contents.nextMark += 1 }
      return contents.nextMark
    }
    store.send(action, mark: mark)
    await store.settle()
    guard let step = log.withLock({ $0.sent.removeValue(forKey: mark) }) else {
      report(
        """
        \(label): the store did not reduce the action; a middleware blocked it, or the store \
        has shut down
        """,
        at: site
      )
      return
    }
    assertStep(step, label: label, updateStateToExpectedResult, at: site)
  }

  // MARK: - Finishing

  /// Waits for the commands in flight to end, then fails the test for what is left: received
  /// actions not asserted, and commands still running, named with the action processed just
  /// before each started.
  ///
  /// ```swift
  /// await store.finish()
  /// ```
  ///
  /// `finish` does not move the ``clock``: advance it first for commands that sleep on it. The
  /// same checks run, without waiting, when the test store is released.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait in real time; default ``timeout``.
  ///   - fileID: The file ID of the caller.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  ///   - column: The column of the caller.
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let deadline = ContinuousClock.now.advanced(by: timeout ?? self.timeout)
    while true {
      let generation = log.changes.generation
      await store.settle()
      if !log.hasCommandsInFlight || ContinuousClock.now >= deadline { break }
      // Wakes when a command ends or an action is reduced; the deadline only ends a hang.
      await log.changes.wait(after: generation, until: deadline)
    }
    await store.settle()
    reportLeftovers(
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
      when: "at the end of the test"
    )
  }
}
