public import CascadeReactor
public import CascadeStreams
import IssueReporting

extension Reactor {
  /// Sends actions at virtual times and reports a test failure, with a diff, unless the states
  /// the reactor went through, and when, equal `expected`.
  ///
  /// ReactorKit's `isLoading` test in one call: a `.refresh` sent at 100 s sets `isLoading`, and
  /// the response, a stream delayed by a second on the scheduler, clears it.
  ///
  /// ```swift
  /// let scheduler = TestScheduler()
  /// let reactor = ListReactor(clock: scheduler)  // its `scheduler` is `clock`
  /// reactor.assertStates(
  ///   \.isLoading,
  ///   on: scheduler,
  ///   actions: [.next(.seconds(100), .refresh)],
  ///   equal: [.next(.zero, false), .next(.seconds(100), true), .next(.seconds(101), false)]
  /// )
  /// ```
  ///
  /// How it runs:
  /// 1. It subscribes to `state`, mapped through `select`, at the scheduler's current time;
  ///    consecutive equal values count as one, so the sequence shows when the selection
  ///    *changed* (the first value is the current state's).
  /// 2. It plays `actions` into `action` at their absolute virtual times (times already past
  ///    play at once); a `completed` event ends them, and the reactor ignores it.
  /// 3. It moves the clock to `end`, or, without one, runs the scheduler until nothing is left to
  ///    run (a periodic stream never ends: give an `end` then), and lets go of its subscriptions.
  /// 4. It compares what arrived with `expected`, times included.
  ///
  /// Everything on virtual time is deterministic: mutations from streams scheduled on
  /// `scheduler` (`delay`, `debounce`, cold test streams …) arrive when the clock reaches them.
  /// Mutations from `async` operations (`Mutations.run`) run in tasks, outside virtual time, and
  /// are not waited for; test those with `await reactor.settle()`.
  ///
  /// The reactor's `scheduler` must deliver where the test can see it: return this test
  /// scheduler (states then arrive at the virtual time they were made) or
  /// `ImmediateScheduler.instance`. With one that delivers later, such as the main queue off the
  /// main thread, the failure carries a note saying so.
  ///
  /// - Parameters:
  ///   - select: The part of the state to follow, such as `\.isLoading`; `{ $0 }` for the whole
  ///     state.
  ///   - scheduler: The test scheduler the reactor's time-dependent work runs on.
  ///   - actions: The actions to send, with their absolute virtual times:
  ///     `.next(.seconds(100), .refresh)`.
  ///   - end: The virtual time to stop at; by default the scheduler runs until it is idle.
  ///   - expected: The selected values expected, in order, with their virtual times:
  ///     `.next(.zero, false)`.
  ///   - message: A note added to the failure message.
  ///   - fileID: The file ID of the caller.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  ///   - column: The column of the caller.
  public func assertStates<Value: Equatable & Sendable>(
    _ select: @escaping @Sendable (State) -> Value,
    on scheduler: TestScheduler,
    actions: [Recorded<StreamEvent<Action, Never>>],
    until end: Duration? = nil,
    equal expected: [Recorded<StreamEvent<Value, Never>>],
    _ message: @autoclosure () -> String = "",
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let observer = scheduler.createObserver(Value.self)
    let subscription = state.map(select).distinctUntilChanged().subscribe(observer)
    let deliversOnScheduler = (self.scheduler as? TestScheduler) === scheduler
    let deliveredAtOnce = !observer.events.isEmpty
    // The hot stream plays its events only while it is alive: keep it until the end.
    let inputs = scheduler.createHotObservable(actions)
    let binding = inputs.subscribe(action)
    withExtendedLifetime(inputs) {
      if let end {
        scheduler.advance(to: SchedulerInstant(offset: end))
      } else {
        scheduler.run()
      }
    }
    binding.dispose()
    subscription.dispose()

    let actual = observer.events
    guard actual != expected else { return }
    var note = message()
    if !deliversOnScheduler && !deliveredAtOnce {
      note +=
        (note.isEmpty ? "" : "; ")
        + "the reactor did not deliver its state when subscribed: make its `scheduler` this "
        + "TestScheduler or ImmediateScheduler.instance"
    }
    reportMismatch(
      "The reactor's states differ from the expected ones",
      expected: expected,
      actual: actual,
      note: note,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }
}

extension Reactor where State: Equatable {
  /// Sends actions at virtual times and reports a test failure, with a diff, unless the whole
  /// states the reactor went through, and when, equal `expected`.
  ///
  /// The same as ``assertStates(_:on:actions:until:equal:_:fileID:filePath:line:column:)`` with
  /// `{ $0 }` as the selection.
  ///
  /// ```swift
  /// reactor.assertStates(
  ///   on: scheduler,
  ///   actions: [.next(.seconds(1), .increase)],
  ///   equal: [.next(.zero, State(value: 0)), .next(.seconds(1), State(value: 1))]
  /// )
  /// ```
  ///
  /// - Parameters:
  ///   - scheduler: The test scheduler the reactor's time-dependent work runs on.
  ///   - actions: The actions to send, with their absolute virtual times.
  ///   - end: The virtual time to stop at; by default the scheduler runs until it is idle.
  ///   - expected: The states expected, in order, with their virtual times.
  ///   - message: A note added to the failure message.
  ///   - fileID: The file ID of the caller.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  ///   - column: The column of the caller.
  public func assertStates(
    on scheduler: TestScheduler,
    actions: [Recorded<StreamEvent<Action, Never>>],
    until end: Duration? = nil,
    equal expected: [Recorded<StreamEvent<State, Never>>],
    _ message: @autoclosure () -> String = "",
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    assertStates(
      { $0 },
      on: scheduler,
      actions: actions,
      until: end,
      equal: expected,
      message(),
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }
}

extension Reactor where Action: Equatable {
  /// Reports a test failure, with a diff, unless the actions the stubbed reactor recorded equal
  /// `expected`; or if the reactor is not stubbed.
  ///
  /// For view tests: stub the reactor, drive the view, and assert what it sent.
  ///
  /// ```swift
  /// reactor.isStubEnabled = true
  /// view.reactor = reactor
  /// view.refreshControl.sendActions(for: .valueChanged)
  /// reactor.assertStubActions([.refresh])
  /// ```
  ///
  /// - Parameters:
  ///   - expected: The actions expected, in the order they were sent.
  ///   - message: A note added to the failure message.
  ///   - fileID: The file ID of the caller.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  ///   - column: The column of the caller.
  public func assertStubActions(
    _ expected: [Action],
    _ message: @autoclosure () -> String = "",
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard isStubEnabled else {
      let note = message()
      reportIssue(
        "The reactor is not stubbed: set `isStubEnabled = true` before sending the actions"
          + (note.isEmpty ? "" : ": \(note)"),
        fileID: fileID,
        filePath: filePath,
        line: line,
        column: column
      )
      return
    }
    let actual = stub.actions
    guard actual != expected else { return }
    reportMismatch(
      "The stubbed reactor's actions differ from the expected ones",
      expected: expected,
      actual: actual,
      note: message(),
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }
}
