public import CascadeStore
import CascadeStreams

extension TestStore {
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
  public convenience init<S, A>(
    initialState: S,
    clock: TestScheduler? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    reducer: @escaping @Sendable (inout S, A) -> Void
  ) where Architecture == StoreArchitecture<S, A> {
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
  public convenience init<S, A>(
    _ store: Store<S, A>,
    clock: TestScheduler? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where Architecture == StoreArchitecture<S, A> {
    self.init(
      subject: store,
      clock: clock,
      creation: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    ) { log in
      .onStore(
        store,
        log: log,
        send: { action, mark in store.send(action, mark: mark) },
        parkedCommandCount: { store.parkedCommandCount },
        vocabulary: .init(
          received: "action",
          effect: "command",
          idle: "no command is in flight or waiting to send it",
          unprocessed: """
            the store did not reduce the action; a middleware blocked it, or the store has \
            shut down
            """
        )
      )
    }
  }
}

extension TestStore where Architecture.Subject == Store<Architecture.State, Architecture.Action> {
  /// The store under test, to hand to the code being tested.
  ///
  /// Actions sent to it directly count as received.
  public var store: Store<State, Action> { subject }

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
  ///
  /// - Parameter command: The command.
  public func fire<C: Command>(command: C) where C.CommandState == State, C.Action == Action {
    store.fire(command: command)
  }

  /// Fires an asynchronous command at the store.
  ///
  /// - Parameter command: The command.
  public func fire<C: AsyncCommand>(command: C)
  where C.CommandState == State, C.Action == Action {
    store.fire(command: command)
  }

  /// Cancels the store's commands started with `id`.
  ///
  /// - Parameter id: The id the commands were started with.
  public func cancel(id: some Hashable & Sendable) {
    store.cancel(id: id)
  }
}
