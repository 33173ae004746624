public import CascadeFeedback
import CascadeStore

extension TestStore {
  /// Creates a test store running `loop`.
  ///
  /// ```swift
  /// let clock = TestScheduler()
  /// let store = TestStore(loop: Search.loop(on: clock), clock: clock)
  /// await store.send(.type("swift")) { $0.query = "swift" }
  /// await store.receive(.found(["swift"]), within: .seconds(1)) { $0.results = ["swift"] }
  /// ```
  ///
  /// `send` asserts the state after an event sent from outside; `receive` asserts each event
  /// that a feedback emits, in order. `finish` fails for feedback effects still running.
  ///
  /// The test store watches what the loop reduces from now on; its state now is the state
  /// before the first assertion. Create the loop with the `clock` as its scheduler (or
  /// `ImmediateScheduler.instance`), and give its effects the `clock`, so that they run on
  /// virtual time.
  ///
  /// - Parameters:
  ///   - loop: The loop under test.
  ///   - clock: The virtual clock `receive` may advance while it waits.
  ///   - fileID: The file ID of the caller, where failures found on release are reported.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  ///   - column: The column of the caller.
  public convenience init<S, E>(
    loop: FeedbackLoop<S, E>,
    clock: TestScheduler? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where Architecture == FeedbackLoopArchitecture<S, E> {
    let store = loop.testedStore
    self.init(
      subject: loop,
      clock: clock,
      creation: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    ) { log in
      .onStore(
        store,
        log: log,
        send: { event, mark in loop.send(event, mark: mark) },
        parkedCommandCount: { 0 },
        vocabulary: .init(
          received: "event",
          effect: "effect",
          idle: "no feedback effect is in flight to send it",
          unprocessed: """
            the loop did not reduce the event; a middleware blocked it, or the loop has shut \
            down
            """
        )
      )
    }
  }
}

extension TestStore
where Architecture.Subject == FeedbackLoop<Architecture.State, Architecture.Action> {
  /// The loop under test, to hand to the code being tested.
  ///
  /// Events sent to it directly count as received.
  public var loop: Architecture.Subject { subject }
}
