import CascadeFeedback
import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import IssueReporting
import Testing

/// An issue reporter that keeps the messages, so a test can wait for a report made on another
/// task.
final class IssueCollector: IssueReporter {
  let messages = Recorder<String>()

  func reportIssue(
    _ message: @autoclosure () -> String?,
    severity: IssueSeverity,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    messages.append(message() ?? "")
  }

  func expectIssue(
    _ message: @autoclosure () -> String?,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    messages.append(message() ?? "")
  }
}

@Suite(.checksResources)
struct FeedbackAsyncTests {
  struct Search: Sendable, Equatable {
    var query: String?
    var results: [String] = []
  }

  enum SearchEvent: Sendable, Equatable {
    case type(String?)
    case found(String)
  }

  static func reduce(_ state: inout Search, _ event: SearchEvent) {
    switch event {
    case .type(let query): state.query = query
    case .found(let result): state.results.append(result)
    }
  }

  // An async query effect sleeping on virtual time: its result lands when the clock reaches it.
  @Test func asyncQueryEffectRunsOnVirtualTime() async throws {
    let scheduler = TestScheduler()
    let loop = FeedbackLoop<Search, SearchEvent>(
      initialState: Search(),
      reduceInPlace: Self.reduce,
      feedbacks: [
        Feedback(skippingRepeated: \.query) { query, send in
          try await scheduler.sleep(for: .seconds(2))
          send(.found(query))
        }
      ],
      scheduler: ImmediateScheduler.instance
    )
    loop.send(.type("swift"))
    try await scheduler.waitForPendingItems(1)
    await scheduler.advance(by: .seconds(1))
    #expect(loop.currentState.results == [])
    await scheduler.advance(by: .seconds(1))
    await loop.finish()  // the effect woke, sent its result and ended
    #expect(loop.currentState.results == ["swift"])
    await loop.shutdown()
  }

  // AT-24 for async effects: a query change at 1 s cancels the task whose result was due at 2 s;
  // that result never lands, the new query's does.
  @Test func queryChangeCancelsTheTask() async throws {
    let scheduler = TestScheduler()
    let cancelled = Counter()
    let loop = FeedbackLoop<Search, SearchEvent>(
      initialState: Search(),
      reduceInPlace: Self.reduce,
      feedbacks: [
        Feedback(skippingRepeated: \.query) { query, send in
          do {
            try await scheduler.sleep(for: .seconds(2))
          } catch {
            send(.found("late \(query)"))
            // Counted after the late send: once the count is seen, that send has returned.
            cancelled.increment()
            throw error
          }
          send(.found(query))
        }
      ],
      scheduler: ImmediateScheduler.instance
    )
    loop.send(.type("a"))
    try await scheduler.waitForPendingItems(1)
    await scheduler.advance(by: .seconds(1))
    loop.send(.type("ab"))
    #expect(await cancelled.wait { $0 == 1 })
    try await scheduler.waitForPendingItems(1)
    await scheduler.advance(by: .seconds(5))
    // The new query's effect woke, sent its result and ended. The cancelled effect's late send
    // returned before `cancelled` counted it, so had it not been dropped it would be reduced by
    // now.
    await loop.finish()
    #expect(loop.currentState.results == ["ab"])
    await loop.shutdown()
  }

  // An async predicate effect runs while the predicate holds and is cancelled when it stops.
  @Test func asyncPredicateEffectIsCancelledWhenThePredicateFails() async throws {
    let scheduler = TestScheduler()
    let ticks = Counter()
    let cancelled = Counter()
    let loop = FeedbackLoop<Search, SearchEvent>(
      initialState: Search(),
      reduceInPlace: Self.reduce,
      feedbacks: [
        Feedback(predicate: { $0.query != nil }) { _, send in
          do {
            while true {
              try await scheduler.sleep(for: .seconds(1))
              ticks.increment()
              send(.found("tick"))
            }
          } catch {
            cancelled.increment()
            throw error
          }
        }
      ],
      scheduler: ImmediateScheduler.instance
    )
    loop.send(.type("on"))
    for expected in 1...2 {
      try await scheduler.waitForPendingItems(1)
      await scheduler.advance(by: .seconds(1))
      #expect(await ticks.wait { $0 == expected })
    }
    // The effect sleeps again: it has passed its second send, which the loop has then reduced.
    try await scheduler.waitForPendingItems(1)
    await loop.settle()
    #expect(loop.currentState.results.count == 2)
    loop.send(.type(nil))
    #expect(await cancelled.wait { $0 == 1 })
    await scheduler.advance(by: .seconds(5))
    #expect(ticks.value == 2)
    await loop.shutdown()
  }

  // AT-34: an async effect that sends one event and then throws: the event is reduced, later
  // events are processed, and the error is reported (through IssueReporting, by default).
  @Test func failingAsyncEffectDoesNotKillTheLoop() async {
    struct Boom: Error {}
    let collector = IssueCollector()
    await withKnownIssue {
      await withIssueReporters(IssueReporters.current + [collector]) {
        let loop = FeedbackLoop<Search, SearchEvent>(
          initialState: Search(),
          reduceInPlace: Self.reduce,
          feedbacks: [
            Feedback(skippingRepeated: { _ in "once" }) { _, send in
              send(.found("before failure"))
              throw Boom()
            }
          ],
          scheduler: ImmediateScheduler.instance
        )
        #expect(await collector.messages.wait(forCount: 1))
        // The effect has ended and its event is reduced: the loop is idle for the next send.
        await loop.finish()
        loop.send(.found("after"))
        #expect(loop.currentState.results == ["before failure", "after"])
        await loop.shutdown()
      }
    } matching: { issue in
      issue.description.contains(#""feedback effect" failed: Boom()"#)
    }
    #expect(collector.messages.values == [#"Effect "feedback effect" failed: Boom()"#])
  }

  // The loop's `diagnostics` parameter receives a failed effect (no test issue is recorded), so
  // an app can route it to its error reporting.
  @Test func diagnosticsReceiveAFailedEffect() async {
    struct Boom: Error {}
    let received = Recorder<String>()
    let loop = FeedbackLoop<Search, SearchEvent>(
      initialState: Search(),
      reduceInPlace: Self.reduce,
      feedbacks: [
        Feedback(skippingRepeated: { _ in "once" }) { _, send in
          send(.found("before failure"))
          throw Boom()
        }
      ],
      scheduler: ImmediateScheduler.instance,
      diagnostics: { received.append($0.description) }
    )
    #expect(await received.wait(forCount: 1))
    // The effect has ended: nothing more is reported, and its event is reduced.
    await loop.finish()
    #expect(received.values == [#"Effect "feedback effect" failed: Boom()"#])
    #expect(loop.currentState.results == ["before failure"])
    await loop.shutdown()
  }

  // Cancellation is not failure: a cancelled async effect reports nothing.
  @Test func cancelledAsyncEffectReportsNothing() async throws {
    let scheduler = TestScheduler()
    let collector = IssueCollector()
    try await withIssueReporters(IssueReporters.current + [collector]) {
      let loop = FeedbackLoop<Search, SearchEvent>(
        initialState: Search(),
        reduceInPlace: Self.reduce,
        feedbacks: [
          Feedback(skippingRepeated: \.query) { _, _ in
            try await scheduler.sleep(for: .seconds(10))
          }
        ],
        scheduler: ImmediateScheduler.instance
      )
      // The effect's task is started by this send, on this task: it copies the probe.
      let effectEnded = Signal()
      Self.$taskEndProbe.withValue(TaskEndProbe(effectEnded)) {
        loop.send(.type("a"))
      }
      try await scheduler.waitForPendingItems(1)
      #expect(!effectEnded.hasFired)  // the sleeping effect's task holds the probe
      await loop.shutdown()
      #expect(scheduler.pendingCount == 0)  // the sleep was cancelled with the effect
      // The effect's task has run to its end, past the point where it would report a failure.
      #expect(await effectEnded.wait())
      await loop.settle()
    }
    #expect(collector.messages.values == [])
  }

  /// A value that fires its signal when it goes away.
  ///
  /// Bound as a task-local value while an effect starts, it is copied into the effect's task,
  /// which releases its task-local values only once it has run to its end: the signal is a
  /// barrier behind everything that task does.
  final class TaskEndProbe: Sendable {
    let released: CascadeTestSupport.Signal

    init(_ released: CascadeTestSupport.Signal) {
      self.released = released
    }

    deinit {
      released.fire()
    }
  }

  @TaskLocal static var taskEndProbe: TaskEndProbe?
}
