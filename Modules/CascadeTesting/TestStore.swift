import CascadeStore
import CascadeStreams
import IssueReporting

/// A test harness that makes tests exhaustive, for a `Store`, a `Reactor` or a `FeedbackLoop`:
/// every state change and everything received must be asserted, and no work may be left running
/// (AT-33).
///
/// A test store runs the real architecture and watches it process. Each `send` states the change
/// its action (or event) makes, by mutating a copy of the state before it; each input that
/// asynchronous work produces is asserted, in order, with `receive`, which waits for it; `finish`
/// checks that nothing is left. A test reads the same for the three architectures:
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
///
/// @Test func refreshes() async {
///   let clock = TestScheduler()
///   let store = TestStore(reactor: ListReactor(clock: clock), clock: clock)
///
///   await store.send(.refresh) { $0.isLoading = true }  // its synchronous mutations
///   await store.receive(.setItems(["a"]), within: .seconds(1)) { $0.items = ["a"] }
///   await store.receive(.setLoading(false)) { $0.isLoading = false }
///   await store.finish()
/// }
/// ```
///
/// What is *sent* and *received* depends on the architecture (``TestStoreArchitecture``):
///
/// - A `Store` (``init(initialState:clock:fileID:filePath:line:column:reducer:)``): `send` sends
///   an action; `receive` asserts an action that a command, middleware or subscriber sent.
/// - A `Reactor` (``init(reactor:clock:fileID:filePath:line:column:)``): `send` sends an action
///   and asserts its synchronous mutations; `receive` asserts a mutation of asynchronous work (an
///   `async` operation, a mutation stream) or of an action the reactor sent itself.
/// - A `FeedbackLoop` (``init(loop:clock:fileID:filePath:line:column:)``): `send` sends an event;
///   `receive` asserts an event that a feedback emitted.
///
/// **Failures.** The test store reports a failure through IssueReporting (so under Swift Testing
/// and XCTest alike), at the assertion's source location, when:
///
/// 1. the state after a send or receive differs from the expectation (with a CustomDump diff);
/// 2. the state changed, but the `send` or `receive` asserted no change;
/// 3. a change was asserted, but the state did not change;
/// 4. an input was received but not asserted, by the next `send`, by `finish`, or when the test
///    store is released;
/// 5. `receive` waited for an input that never came (naming it), or a different one came;
/// 6. work is still running at `finish` (or when the test store is released): a command, named
///    with the input processed just before it started, a reactor's mutation stream, a loop's
///    feedback effect;
/// 7. an assertion closure throws.
///
/// With ``exhaustivity`` set to ``Exhaustivity/off``, a test asserts only what matters to it:
/// 2, 4 and 6 are skipped (and listed in ``skippedAssertions``), and 1 and 3 check only the
/// fields the closure sets.
///
/// **Waiting.** `receive` waits for its input in virtual time and in real time. On the test
/// store's ``clock`` (a ``TestScheduler``) it advances virtual time, one due item at a time, by
/// at most its `within` budget (default zero, for tests that move the clock themselves), and
/// stops where the input arrived. In real time it waits for asynchronous work to run (a task the
/// clock has woken still needs a thread): it wakes on each input the architecture reduces, each
/// command that ends, each item scheduled on the clock (work going to sleep on it) and when all
/// work has ended, never by polling, and gives up after ``timeout`` (60 seconds by default), a
/// bound that only turns a hang into a failure. It stops at once, and fails, when no work is in
/// flight or waiting and nothing is due on the clock within the budget; when it fails, the clock
/// has moved by the whole budget. `finish` waits in real time only, the same way, for the work
/// in flight to end.
///
/// Use a test store from one task at a time: each assertion awaits the one before.
public final class TestStore<Architecture: TestStoreArchitecture>: Sendable {
  /// The state the test store asserts.
  public typealias State = Architecture.State
  /// What ``send(_:assert:fileID:filePath:line:column:)`` takes.
  public typealias Action = Architecture.Action
  /// What `receive` asserts.
  public typealias Received = Architecture.Received

  /// The store, reactor or loop under test.
  let subject: Architecture.Subject

  /// The virtual clock that `receive` may advance, if the test store has one.
  public let clock: TestScheduler?

  let log: TestStoreLog<State, Action, Received>
  let driver: TestStoreDriver<State, Action>
  let creation: CallSite

  /// Creates a test store for `subject`, connected by `connect`, which installs the log's probe
  /// and returns the driver.
  init(
    subject: Architecture.Subject,
    clock: TestScheduler?,
    creation: CallSite,
    connect: (TestStoreLog<State, Action, Received>) -> TestStoreDriver<State, Action>
  ) {
    self.subject = subject
    self.clock = clock
    self.creation = creation
    let log = TestStoreLog<State, Action, Received>()
    self.log = log
    driver = connect(log)
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

  /// How long `receive` and `finish` wait at most, in real time, for work in flight; 60 seconds
  /// by default.
  ///
  /// The waits end as soon as the awaited input arrives or the work ends, so the bound only
  /// decides how long a test that would hang takes to fail; it is generous so that a loaded
  /// machine, whose threads run the work's tasks late, never fails a correct test. Lower it in
  /// tests of a failure that waits it out.
  public var timeout: Duration {
    get { log.withLock { $0.timeout } }
    set { log.withLock { $0.timeout = newValue } }
  }

  /// The assertions skipped in non-exhaustive mode so far, one message each, in order.
  public var skippedAssertions: [String] { log.withLock { $0.skipped } }

  /// The current state of the store, reactor or loop.
  public var state: State { driver.currentState() }

  // MARK: - Sending

  /// Sends `action` and asserts the state change it makes.
  ///
  /// `updateStateToExpectedResult` receives the state as it was just before the action and
  /// mutates it into the state expected after; the test fails, with a diff, unless the state
  /// after the action is exactly that. Without a closure, the action must not change the state.
  ///
  /// ```swift
  /// await store.send(.increment) { $0.count = 1 }
  /// ```
  ///
  /// The change asserted is the action's own: for a store, its reduction; for a reactor, the
  /// synchronous mutations of its `mutate(action:)`, all of them (its asynchronous ones are
  /// received); for a loop, the event's reduction. A reactor whose `transform(action:)` or
  /// `transform(mutation:)` reworks its inputs passes them on through those streams, as
  /// separate inputs: their mutations are received, and the `send` itself changes nothing.
  ///
  /// In exhaustive mode, inputs received before and not asserted yet fail the test here.
  ///
  /// - Parameters:
  ///   - action: The action (a loop's event) to send.
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
    await driver.settle()
    reportUnassertedReceived(before: label, at: site)
    let mark = log.withLock { contents in
      defer { contents.nextMark += 1 }
      contents.sending[contents.nextMark] = action
      return contents.nextMark
    }
    driver.send(action, mark)
    await driver.settle()
    let change = log.withLock { contents in
      contents.sending[mark] = nil
      return contents.sent.removeValue(forKey: mark)
    }
    guard let change else {
      report("\(label): \(driver.vocabulary.unprocessed)", at: site)
      return
    }
    assertChange(change, label: label, updateStateToExpectedResult, at: site)
  }

  // MARK: - Finishing

  /// Waits for the work in flight to end, then fails the test for what is left: received inputs
  /// not asserted, and work still running (commands named with the input processed just before
  /// each started).
  ///
  /// ```swift
  /// await store.finish()
  /// ```
  ///
  /// `finish` does not move the ``clock``: advance it first for work that sleeps on it. The
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
      await driver.settle()
      if !isWorking || ContinuousClock.now >= deadline { break }
      // Wakes when a command ends, an input is reduced or all work has ended; the deadline
      // only ends a hang.
      watchWork()
      await log.changes.wait(after: generation, until: deadline)
    }
    await driver.settle()
    reportLeftovers(
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
      when: "at the end of the test"
    )
  }

  // MARK: - Work in flight

  /// The effects in flight that the log has not seen start: those the architecture began before
  /// the test store was attached to it (a reactor that had already been sent an action).
  var otherWork: Int {
    max(0, driver.effectsInFlight() - log.withLock { $0.commands.count })
  }

  /// Whether any work is in flight.
  var isWorking: Bool { log.hasCommandsInFlight || otherWork > 0 }

  /// Makes sure that the log's change signal fires when all work has ended, for work that ends
  /// without a signal of its own (a stream that completes without sending anything).
  ///
  /// Only for work other than commands, whose ends the probe signals already. One watching task
  /// at a time; it does not keep the architecture alive, and ends when the architecture does.
  func watchWork() {
    guard otherWork > 0 else { return }
    let start = log.withLock { contents in
      defer { contents.watching = true }
      return !contents.watching
    }
    guard start else { return }
    let (rest, log) = (driver.rest, log)
    Task {
      await rest()
      log.withLock { $0.watching = false }
      log.changes.signal()
    }
  }
}
