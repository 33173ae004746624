public import CascadeFeedback
public import CascadeStreams
import IssueReporting

extension TestScheduler {
  /// Runs a feedback loop on this virtual clock, sending `events` to it at their times, and
  /// records its states.
  ///
  /// The recording starts with the loop's state now and ends at `end`; each state is recorded
  /// with the virtual time it was delivered at. Create the loop with this scheduler (or
  /// `ImmediateScheduler.instance`) as its scheduler, and give its effects this scheduler, so that
  /// everything happens on virtual time.
  ///
  /// ```swift
  /// let scheduler = TestScheduler()
  /// let loop = FeedbackLoop(
  ///   initialState: Search(),
  ///   reduce: Search.reduce,
  ///   feedbacks: [Search.results(on: scheduler)],
  ///   scheduler: scheduler
  /// )
  /// let states = scheduler.recordStates(
  ///   of: loop,
  ///   events: [.next(.seconds(1), .type("swift")), .completed(.seconds(5))]
  /// )
  /// states.assertEvents([
  ///   .next(.zero, Search()),
  ///   .next(.seconds(1), Search(query: "swift")),
  ///   .next(.seconds(3), Search(query: "swift", results: ["swift"])),
  ///   .completed(.seconds(5)),
  /// ])
  /// ```
  ///
  /// - Parameters:
  ///   - loop: The loop to run.
  ///   - events: The events to send it from outside, at absolute virtual times (times already
  ///     past are sent at once). A `.completed` event stops the loop at its time.
  ///   - end: The absolute virtual time to stop recording at; the clock is advanced to it.
  ///     Default: when nothing is left to run on this scheduler (pass an end for a loop with a
  ///     never-ending timer).
  /// - Returns: An observer holding the recorded states. Events due after `end` are not sent.
  public func recordStates<State, Event>(
    of loop: FeedbackLoop<State, Event>,
    events: [Recorded<StreamEvent<Event, Never>>] = [],
    until end: Duration? = nil
  ) -> TestableObserver<State, Never> {
    let observer = createObserver(State.self)
    let subscription = loop.states.subscribe(observer)
    let sends = CompositeDisposable()
    for recorded in events {
      let event = recorded.value
      let item = schedule(at: SchedulerInstant(offset: recorded.time), counted: true) {
        [weak loop] in
        switch event {
        case .next(let event): loop?.send(event)
        case .completed: loop?.close()
        }
      }
      sends.insert(item)
    }
    if let end {
      advance(to: max(now, SchedulerInstant(offset: end)))
    } else {
      run()
    }
    sends.dispose()
    subscription.dispose()
    return observer
  }

  /// Runs a feedback loop on this virtual clock, sending `events` to it at their times, and
  /// reports a test failure, with a diff, unless the states it went through equal `expected`.
  ///
  /// The states are the loop's state now, then each new one up to `end`, as
  /// ``recordStates(of:events:until:)`` records them; to check their times too, assert on what it
  /// returns. The failure is reported through IssueReporting, so it fails a Swift Testing test
  /// and an XCTest test alike, at the caller's source location.
  ///
  /// ```swift
  /// let scheduler = TestScheduler()
  /// let loop = FeedbackLoop(
  ///   initialState: 0,
  ///   reduce: { count, event in event == .increment ? count + 1 : count - 1 },
  ///   feedbacks: [],
  ///   scheduler: scheduler
  /// )
  /// scheduler.assertStates(
  ///   of: loop,
  ///   events: [.next(.seconds(1), .increment), .next(.seconds(2), .increment)],
  ///   equal: [0, 1, 2]
  /// )
  /// await loop.shutdown()
  /// ```
  ///
  /// A mismatch reads:
  ///
  /// ```
  /// The loop's states differ from the expected ones
  ///
  ///     [
  ///       … (2 unchanged),
  ///   -   [2]: 3
  ///   +   [2]: 2
  ///     ]
  ///
  /// (Expected: -, Actual: +)
  /// ```
  ///
  /// - Parameters:
  ///   - loop: The loop to run.
  ///   - events: The events to send it from outside, at absolute virtual times (times already
  ///     past are sent at once). A `.completed` event stops the loop at its time.
  ///   - end: The absolute virtual time to stop at. Default: when nothing is left to run on this
  ///     scheduler.
  ///   - expected: The states expected, in order, starting with the state now.
  ///   - message: A note added to the failure message.
  ///   - fileID: The file ID of the caller.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  ///   - column: The column of the caller.
  public func assertStates<State: Equatable, Event>(
    of loop: FeedbackLoop<State, Event>,
    events: [Recorded<StreamEvent<Event, Never>>] = [],
    until end: Duration? = nil,
    equal expected: [State],
    _ message: @autoclosure () -> String = "",
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let actual = recordStates(of: loop, events: events, until: end).values
    guard actual != expected else { return }
    reportMismatch(
      "The loop's states differ from the expected ones",
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
