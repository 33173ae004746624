public import CascadeReactor
import CascadeStore

extension TestStore {
  /// Creates a test store running `reactor`, starting it if it has not started yet.
  ///
  /// ```swift
  /// let clock = TestScheduler()
  /// let store = TestStore(reactor: ListReactor(clock: clock), clock: clock)
  /// await store.send(.refresh) { $0.isLoading = true }
  /// await store.receive(.setItems(["a", "b"]), within: .seconds(1)) { $0.items = ["a", "b"] }
  /// ```
  ///
  /// `send` asserts the state after an action's synchronous mutations; `receive` asserts each
  /// mutation that comes later (from an `async` operation or a mutation stream of `Mutations`,
  /// or from an action the reactor or a binding sent itself), in order. `finish` fails for
  /// asynchronous mutations still running (named after the action that started them) and for
  /// mutation streams that have not ended.
  ///
  /// The test store watches what the reactor processes from now on; its state now is the state
  /// before the first assertion. Give the reactor the `clock` as its scheduler, and to the
  /// streams and operations of its `mutate(action:)`, so that they run on virtual time.
  ///
  /// - Parameters:
  ///   - reactor: The reactor under test.
  ///   - clock: The virtual clock `receive` may advance while it waits.
  ///   - fileID: The file ID of the caller, where failures found on release are reported.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  ///   - column: The column of the caller.
  public convenience init<R: Reactor>(
    reactor: R,
    clock: TestScheduler? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where Architecture == ReactorArchitecture<R> {
    let store = reactor.testedStore
    let reworksActions = reactor.reworksActions
    self.init(
      subject: reactor,
      clock: clock,
      creation: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    ) { log in
      // A sent action's synchronous mutations are reduced with its mark, inside the bracket of
      // `send(_:mark:willProcess:didProcess:dropped:)`, which reports its change as a whole;
      // every mutation reduced without a mark is received.
      store.install(
        probe: StoreProbe(
          reduced: { input, mark, before, after in
            guard mark == nil, case .mutation(let mutation, _) = input else { return }
            log.received(mutation, before: before, after: after)
          },
          commandStarted: { task, name in log.commandStarted(task, name: name) },
          commandFinished: { task in log.commandFinished(task) }
        )
      )
      let handle = store.weakHandle
      return TestStoreDriver(
        currentState: { store.state },
        send: { action, mark in
          guard !reworksActions else {
            // The action goes through `transform(action:)`: what it causes is received.
            log.willProcess(mark: mark, before: store.state)
            reactor.send(action)
            log.didProcess(mark: mark, after: store.state)
            return
          }
          store.send(
            .action(action),
            mark: mark,
            willProcess: { before in log.willProcess(mark: mark, before: before) },
            didProcess: { after in log.didProcess(mark: mark, after: after) },
            dropped: {}
          )
        },
        settle: { await store.settle() },
        rest: { await handle.finish() },
        effectsInFlight: { store.effectsInFlight },
        parkedCommandCount: { 0 },
        vocabulary: .init(
          received: "mutation",
          effect: "effect",
          idle: "no asynchronous mutation or mutation stream is in flight to send it",
          unprocessed: "the reactor did not process the action; it has shut down"
        )
      )
    }
  }
}

extension TestStore where Architecture.Subject: Reactor {
  /// The reactor under test, to hand to the code being tested.
  ///
  /// Actions sent to it directly are processed as the reactor's own: their mutations are
  /// received.
  public var reactor: Architecture.Subject { subject }
}
