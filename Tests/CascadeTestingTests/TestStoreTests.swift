import CascadeStore
import CascadeStreams
import CascadeTesting
import Testing

/// The exhaustive test store: the happy paths on virtual time, and one test per failure of
/// AT-33, each proving the failure is reported (through IssueReporting) with a precise message.
@Suite(.checksResources, .timeLimit(.minutes(5)))
struct TestStoreTests {
  struct Counter: Equatable, Sendable {
    var count = 0
    var isLoading = false

    enum Action: Equatable, Sendable {
      case increment
      case noop
      case load
      case loaded(Int)
    }

    static func reduce(_ state: inout Counter, _ action: Action) {
      switch action {
      case .increment: state.count += 1
      case .noop: break
      case .load: state.isLoading = true
      case .loaded(let count):
        state.isLoading = false
        state.count = count
      }
    }
  }

  /// A synchronous command that sends `action` while the store processes it, so the action is
  /// received by the time `fire(command:)` returns.
  struct Send: Command {
    let action: Counter.Action

    func execute(state: Counter, core: Store<Counter, Counter.Action>) {
      core.send(action)
    }
  }

  /// A command that loads `count` after `delay` on `clock`.
  static func load(
    _ count: Int,
    after delay: Duration,
    on clock: TestScheduler
  ) -> @Sendable (Counter, Store<Counter, Counter.Action>) async throws -> Void {
    { _, handle in
      try await clock.sleep(for: delay)
      handle.send(.loaded(count))
    }
  }

  // MARK: - Happy paths

  @Test func sendAssertsEachStateChange() async {
    let store = TestStore(initialState: Counter(), reducer: Counter.reduce)
    await store.send(.increment) { $0.count = 1 }
    await store.send(.increment) { $0.count = 2 }
    await store.send(.noop)
    #expect(store.state.count == 2)
    await store.finish()
  }

  // AT-33: an action sent back by a command is received and asserted, on virtual time the test
  // moves itself.
  @Test func receivesTheActionOfACommandOnVirtualTime() async throws {
    let clock = TestScheduler()
    let store = TestStore(initialState: Counter(), clock: clock, reducer: Counter.reduce)

    await store.send(.load) { $0.isLoading = true }
    store.run("load", Self.load(3, after: .seconds(2), on: clock))
    try await clock.waitForPendingItems(1)
    await clock.advance(by: .seconds(2))
    await store.receive(.loaded(3)) {
      $0.isLoading = false
      $0.count = 3
    }
    await store.finish()
  }

  // AT-33: `receive(within:)` advances the clock as far as needed, and stops where the action
  // arrived.
  @Test func receiveAdvancesTheClockWithinItsBudget() async {
    let clock = TestScheduler()
    let store = TestStore(initialState: Counter(), clock: clock, reducer: Counter.reduce)

    await store.send(.load) { $0.isLoading = true }
    store.run("load", Self.load(3, after: .seconds(2), on: clock))
    await store.receive(.loaded(3), within: .seconds(10)) {
      $0.isLoading = false
      $0.count = 3
    }
    #expect(clock.now == SchedulerInstant(offset: .seconds(2)))
    await store.finish()
  }

  @Test func receivesSeveralActionsInOrder() async {
    let clock = TestScheduler()
    let store = TestStore(initialState: Counter(), clock: clock, reducer: Counter.reduce)

    store.run("ticks") { _, handle in
      for _ in 0..<3 {
        try await clock.sleep(for: .seconds(1))
        handle.send(.increment)
      }
    }
    await store.receive(.increment, within: .seconds(1)) { $0.count = 1 }
    await store.receive(.increment, within: .seconds(1)) { $0.count = 2 }
    await store.receive(.increment, within: .seconds(1)) { $0.count = 3 }
    #expect(clock.now == SchedulerInstant(offset: .seconds(3)))
    await store.finish()
  }

  @Test func receiveWithAPredicate() async {
    let store = TestStore(initialState: Counter(), reducer: Counter.reduce)
    store.run { _, handle in handle.send(.loaded(7)) }
    let isLoaded: (Counter.Action) -> Bool = { if case .loaded = $0 { true } else { false } }
    await store.receive(where: isLoaded) { $0.count = 7 }
    await store.finish()
  }

  @Test func actionsSentStraightToTheStoreAreReceived() async {
    let store = TestStore(initialState: Counter(), reducer: Counter.reduce)
    store.store.send(.increment)
    await store.receive(.increment) { $0.count = 1 }
    await store.finish()
  }

  @Test func wrapsAStoreAndReceivesWhatItsSubscribersSend() async {
    let store = TestStore(Store(initialState: Counter(), reducer: Counter.reduce))
    let handle = store.store
    let subscription = handle.subscribe(select: \.isLoading, on: .synchronous) { loading in
      if loading { handle.send(.loaded(1)) }
    }
    await store.send(.load) { $0.isLoading = true }
    await store.receive(.loaded(1)) {
      $0.isLoading = false
      $0.count = 1
    }
    subscription.dispose()
    await store.finish()
  }

  @Test func aCoreIsTestedWithEquatableEvents() async {
    struct Tally: CoreState, Equatable {
      var total = 0
      mutating func react(to event: any CoreEvent) {
        if let add = event as? Add { total += add.amount }
      }
    }
    struct Add: CoreEvent, Equatable { var amount: Int }

    let store = TestStore(Core(initialState: Tally()))
    await store.send(Add(amount: 2)) { $0.total = 2 }
    store.run { _, core in core.fire(event: Add(amount: 5)) }
    await store.receive(Add(amount: 5)) { $0.total = 7 }
    await store.finish()
  }

  /// A `Core`'s events that are not `Equatable`, received in an `Equatable` form of theirs:
  /// matched by their form, and a mismatch shows the two forms' difference.
  @Test func aCoreEventIsReceivedInAForm() async {
    struct Tally: CoreState, Equatable {
      var total = 0
      mutating func react(to event: any CoreEvent) {
        if let add = event as? Add { total += add.amount }
      }
    }
    struct Add: CoreEvent { var amount: Int }
    struct Other: CoreEvent {}
    enum Form: Equatable { case add(amount: Int) }
    let form = { (event: any CoreEvent) -> Form? in
      (event as? Add).map { .add(amount: $0.amount) }
    }

    let store = TestStore(Core(initialState: Tally()))
    store.run { _, core in core.fire(event: Add(amount: 5)) }
    await store.receive(.add(amount: 5), as: form) { $0.total = 5 }
    store.run { _, core in core.fire(event: Add(amount: 2)) }
    await withKnownIssue {
      await store.receive(.add(amount: 3), as: form) { $0.total = 8 }
    } matching: { issue in
      let text = issue.description
      return text.contains("where .add(amount: 3) was expected")
        && text.contains("- TestStoreTests.Form.add(amount: 3)")
        && text.contains("+ TestStoreTests.Form.add(amount: 2)")
    }
    store.run { _, core in core.fire(event: Other()) }
    await withKnownIssue {
      await store.receive(.add(amount: 1), as: form)
    } matching: { issue in
      issue.description.contains("and it has no such form")
    }
    await store.finish()
  }

  @Test @MainActor func finishWaitsForCommandsToEnd() async {
    let store = TestStore(initialState: Counter(), reducer: Counter.reduce)
    let (release, releaser) = AsyncStream<Void>.makeStream()
    let ended = Recorder<String>()
    store.run("held") { _, _ in
      for await _ in release { break }
      ended.append("held")
    }
    // The command is held until this main-actor job runs, which is once the test gives up the
    // main actor: inside `finish` (nonisolated(nonsending), so on the main actor up to its first
    // suspension), which has then seen the command in flight and waits for it to end.
    Task { @MainActor in
      releaser.yield()
      releaser.finish()
    }
    await store.finish()
    #expect(ended.values == ["held"])
    #expect(store.store.effectsInFlight == 0)
  }

  @Test func cancelledCommandsDoNotCountAsRunning() async throws {
    let clock = TestScheduler()
    let store = TestStore(initialState: Counter(), clock: clock, reducer: Counter.reduce)
    store.run("load", id: "load", Self.load(3, after: .seconds(5), on: clock))
    try await clock.waitForPendingItems(1)
    store.cancel(id: "load")
    await store.finish()
  }

  // MARK: - AT-33 failures

  // AT-33 (1): a state change that differs from the expectation fails, with a diff.
  @Test func failsWhenTheStateDiffersFromTheExpectation() async {
    let store = TestStore(initialState: Counter(), reducer: Counter.reduce)
    await withKnownIssue {
      await store.send(.increment) { $0.count = 2 }
    } matching: { issue in
      let text = issue.description
      return text.contains("The state after send(.increment) does not match the expectation")
        && text.contains("-   count: 2,")
        && text.contains("+   count: 1,")
        && text.contains("(Expected: -, Actual: +)")
    }
    await store.finish()
  }

  // AT-33 (2): a state change that was not asserted fails, with a diff.
  @Test func failsWhenAChangeWasNotAsserted() async {
    let store = TestStore(initialState: Counter(), reducer: Counter.reduce)
    await withKnownIssue {
      await store.send(.increment)
    } matching: { issue in
      let text = issue.description
      return text.contains("State changed after send(.increment), but no change was asserted")
        && text.contains("-   count: 0,")
        && text.contains("+   count: 1,")
    }
    await store.finish()
  }

  // AT-33 (3): a change asserted when none happened fails.
  @Test func failsWhenAnAssertedChangeDidNotHappen() async {
    let store = TestStore(initialState: Counter(), reducer: Counter.reduce)
    await withKnownIssue {
      await store.send(.noop) { $0.count = 1 }
    } matching: { issue in
      let text = issue.description
      return text.contains(
        "A state change was asserted after send(.noop), but the state did not change"
      )
        && text.contains("-   count: 1,")
        && text.contains("+   count: 0,")
    }
    await withKnownIssue {
      await store.send(.noop) { _ in }
    } matching: { issue in
      issue.description.contains(
        "neither the assertion closure nor the action changed the state"
      )
    }
    await store.finish()
  }

  // AT-33 (4): a received action left unasserted fails at the end of the test.
  @Test func failsForAReceivedActionNotAssertedAtTheEnd() async {
    let store = TestStore(initialState: Counter(), reducer: Counter.reduce)
    store.run("load") { _, handle in handle.send(.loaded(3)) }
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      let text = issue.description
      return text.contains("1 received action was not asserted at the end of the test:")
        && text.contains("\n  .loaded(3)\n")
    }
  }

  // AT-33 (4): … and before the next send.
  @Test func failsForAReceivedActionNotAssertedBeforeTheNextSend() async {
    let store = TestStore(initialState: Counter(), reducer: Counter.reduce)
    store.fire(command: Send(action: .loaded(3)))
    await withKnownIssue {
      await store.send(.increment) { $0.count = 4 }
    } matching: { issue in
      message(of: issue)
        == "1 received action must be asserted before send(.increment):\n\n  .loaded(3)"
    }
    await store.finish()
  }

  // AT-33 (4): … and when the test store is released without `finish`.
  @Test func failsForAReceivedActionNotAssertedWhenReleased() async {
    await withKnownIssue {
      let store = TestStore(initialState: Counter(), reducer: Counter.reduce)
      store.store.send(.increment)
      await store.store.settle()
    } matching: { issue in
      issue.description.contains(
        "1 received action was not asserted when the test store was released"
      )
    }
  }

  // AT-33 (5): a receive for an action that never comes fails, naming the action; with nothing
  // in flight that could send it, at once.
  @Test func failsWhenAReceivedActionNeverCame() async {
    let store = TestStore(initialState: Counter(), reducer: Counter.reduce)
    await withKnownIssue {
      await store.receive(.loaded(3)) { $0.count = 3 }
    } matching: { issue in
      issue.description.contains(
        "Expected to receive .loaded(3), but it never arrived: no command is in flight or "
          + "waiting to send it"
      )
    }
    await store.finish()
  }

  // AT-33 (5): … after a timeout in virtual time, naming the command still running.
  @Test func failsWhenAReceivedActionDidNotComeWithinTheVirtualTimeout() async throws {
    let clock = TestScheduler()
    let store = TestStore(initialState: Counter(), clock: clock, reducer: Counter.reduce)
    store.timeout = .milliseconds(100)
    await store.send(.load) { $0.isLoading = true }
    store.run("load", id: "load", Self.load(3, after: .seconds(10), on: clock))
    try await clock.waitForPendingItems(1)
    await withKnownIssue {
      await store.receive(.loaded(3), within: .seconds(5)) { $0.count = 3 }
    } matching: { issue in
      message(of: issue) == """
        Expected to receive .loaded(3), but it never arrived within 0.1 seconds of real time; \
        the clock was advanced by 5.0 seconds, to 5.0 seconds

        Still running:

          "load", started after send(.load)
        """
    }
    #expect(clock.now == SchedulerInstant(offset: .seconds(5)))
    store.cancel(id: "load")
    await store.finish()
  }

  // AT-33 (5): … and a different action than the one expected fails, with a diff.
  @Test func failsWhenADifferentActionIsReceived() async {
    let store = TestStore(initialState: Counter(), reducer: Counter.reduce)
    store.run { _, handle in handle.send(.loaded(4)) }
    await withKnownIssue {
      await store.receive(.loaded(3)) { $0.count = 3 }
    } matching: { issue in
      let text = issue.description
      return text.contains("Received .loaded(4) where .loaded(3) was expected")
        && text.contains("- TestStoreTests.Counter.Action.loaded(3)")
        && text.contains("+ TestStoreTests.Counter.Action.loaded(4)")
    }
    await store.finish()
  }

  // AT-33 (6): a command still running at the end fails, naming the action it started after.
  @Test func failsForACommandStillRunningAtTheEnd() async throws {
    let clock = TestScheduler()
    let store = TestStore(initialState: Counter(), clock: clock, reducer: Counter.reduce)
    await store.send(.load) { $0.isLoading = true }
    store.run("load", id: "load", Self.load(3, after: .seconds(10), on: clock))
    try await clock.waitForPendingItems(1)
    await withKnownIssue {
      await store.finish(timeout: .milliseconds(100))
    } matching: { issue in
      let text = issue.description
      return text.contains("1 command is still running at the end of the test:")
        && text.contains("\n  \"load\", started after send(.load)\n")
    }
    store.cancel(id: "load")
    // The cancelled command has ended, so the resource check finds nothing of it left.
    await store.store.finish()
  }

  // AT-33 (7): an assertion closure that throws fails, with the error.
  @Test func failsWhenAnAssertionClosureThrows() async {
    struct Boom: Error, CustomStringConvertible {
      var description: String { "boom" }
    }
    let store = TestStore(initialState: Counter(), reducer: Counter.reduce)
    await withKnownIssue {
      await store.send(.increment) { _ in throw Boom() }
    } matching: { issue in
      message(of: issue) == "The assertion closure of send(.increment) threw an error: boom"
    }
    store.run { _, handle in handle.send(.loaded(2)) }
    await withKnownIssue {
      await store.receive(.loaded(2)) { _ in throw Boom() }
    } matching: { issue in
      message(of: issue) == "The assertion closure of receive(.loaded(2)) threw an error: boom"
    }
    await store.finish()
  }

  // MARK: - The documentation's example

  // AT-33: the example of CascadeTesting.docc's "Exhaustive store tests", and its failure text.
  @Test func documentationExample() async throws {
    let clock = TestScheduler()
    let store = TestStore(initialState: Counter(), clock: clock, reducer: Counter.reduce)

    await withKnownIssue {
      await store.send(.load) {
        $0.isLoading = true
        $0.count = 1
      }
    } matching: { issue in
      message(of: issue) == """
        The state after send(.load) does not match the expectation

            TestStoreTests.Counter(
          -   count: 1,
          +   count: 0,
              isLoading: true
            )

        (Expected: -, Actual: +)
        """
    }
    store.run("load") { _, handle in
      try await clock.sleep(for: .seconds(2))
      handle.send(.loaded(3))
    }
    try await clock.waitForPendingItems(1)  // the command is asleep, due at 2 s
    await clock.advance(by: .seconds(2))
    await store.receive(.loaded(3)) {
      $0.isLoading = false
      $0.count = 3
    }
    await store.finish()
  }

  // MARK: - Non-exhaustive mode

  // AT-33: non-exhaustive mode asserts only what the test asserts, and lists what it skipped.
  @Test func nonExhaustiveModeSkipsUnassertedChangesActionsAndCommands() async throws {
    let clock = TestScheduler()
    let store = TestStore(initialState: Counter(), clock: clock, reducer: Counter.reduce)
    store.exhaustivity = .off

    await store.send(.increment)  // (2) an unasserted change
    await store.send(.load) { $0.count = 1 }  // (1) checks only `count`, skips `isLoading`
    store.run { _, handle in
      handle.send(.increment)
      handle.send(.loaded(5))
    }
    await store.receive(.loaded(5)) { $0.count = 5 }  // skips the `.increment` before it
    store.fire(command: Send(action: .increment))
    store.run("load", id: "load", Self.load(3, after: .seconds(10), on: clock))
    try await clock.waitForPendingItems(1)
    await store.finish(timeout: .milliseconds(50))  // (4) and (6) skipped

    let skipped = store.skippedAssertions
    try #require(skipped.count == 6)
    #expect(skipped[0].contains("State changed after send(.increment), but no change was asserted"))
    #expect(skipped[1].contains("Skipped assertions after send(.load)"))
    #expect(skipped[1].contains("+   isLoading: true"))
    #expect(skipped[2] == "Skipped receiving .increment before receive(.loaded(5))")
    #expect(skipped[3].contains("Skipped assertions after receive(.loaded(5))"))
    #expect(skipped[3].contains("+   isLoading: false"))
    #expect(skipped[4].contains("1 received action was not asserted at the end of the test"))
    #expect(skipped[5].contains("1 command is still running at the end of the test"))
    store.cancel(id: "load")
    // The cancelled command has ended, so the resource check finds nothing of it left.
    await store.store.finish()
  }

  // AT-33: a wrong assertion still fails in non-exhaustive mode.
  @Test func nonExhaustiveModeStillFailsAWrongAssertion() async {
    let store = TestStore(initialState: Counter(), reducer: Counter.reduce)
    store.exhaustivity = .off
    await store.send(.load)
    await withKnownIssue {
      await store.send(.increment) { $0.count = 2 }
    } matching: { issue in
      let text = issue.description
      return text.contains("The state after send(.increment) does not match the expectation")
        && text.contains("-   count: 2,") && text.contains("+   count: 1,")
    }
    await withKnownIssue {
      await store.receive(.loaded(1))
    } matching: { issue in
      issue.description.contains("Expected to receive .loaded(1), but it never arrived")
    }
    await store.finish()
  }

  @Test func nonExhaustiveModeCanReportSkippedAssertionsAsWarnings() async {
    let store = TestStore(initialState: Counter(), reducer: Counter.reduce)
    store.exhaustivity = .off(showSkippedAssertions: true)
    await store.send(.increment)  // a warning, not a failure
    #expect(store.skippedAssertions.count == 1)
    await store.finish()
  }
}

/// The message a failure was reported with, exactly.
private func message(of issue: Issue) -> String {
  issue.comments.map(\.rawValue).joined(separator: "\n")
}
