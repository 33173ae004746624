import CascadeFeedback
import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// A loop whose feedbacks answer every state with an event never settles: its `init` and `send`
/// still return, after `FeedbackLoop.settleLimit` such events, with one diagnostic, and the loop
/// goes on at one event per millisecond of its scheduler (issue 33; ReactiveFeedback's `test_emits_initial` hung
/// Cascade's `init` before).
@Suite(.checksResources)
struct FeedbackLoopSettleTests {
  /// A feedback that answers every state with an increment.
  static let restless = Feedback<Int, Int> { states in
    states.flatMapLatest { _ in Observable.just(1) }
  }

  @Test func initReturnsPastTheLimitWithOneDiagnosticThenGoesOnOnePerMillisecond() async {
    let scheduler = TestScheduler()
    let diagnostics = Recorder<String>()
    let loop = FeedbackLoop<Int, Int>(
      initial: 0,
      reduceInPlace: { count, step in count += step },
      feedbacks: [Self.restless],
      scheduler: scheduler,
      diagnostics: { diagnostics.append($0.description) }
    )
    let limit = FeedbackLoop<Int, Int>.settleLimit
    #expect(loop.currentState == limit)
    #expect(diagnostics.values.count == 1)
    #expect(diagnostics.values.first?.contains("did not settle") == true)
    // Each millisecond reduces one more event, which is answered by the next.
    await scheduler.advance(by: .zero)
    #expect(loop.currentState == limit)
    await scheduler.advance(by: .milliseconds(1))
    #expect(loop.currentState == limit + 1)
    await scheduler.advance(by: .milliseconds(3))
    #expect(loop.currentState == limit + 4)
    #expect(diagnostics.values.count == 1)
    await loop.shutdown()
    await scheduler.advance(by: .milliseconds(10))
    #expect(loop.currentState == limit + 4)
  }

  @Test func anEventFromOutsideStartsANewCount() async {
    let scheduler = TestScheduler()
    let diagnostics = Recorder<String>()
    let loop = FeedbackLoop<Int, Int>(
      initial: 0,
      reduceInPlace: { count, step in count += step },
      feedbacks: [
        Feedback { states in
          // Settles: answers each state up to the next multiple of 100.
          states.flatMapLatest { count in count % 100 == 99 ? .empty() : Observable.just(1) }
        }
      ],
      scheduler: scheduler,
      diagnostics: { diagnostics.append($0.description) }
    )
    #expect(loop.currentState == 99)
    // Each send runs 100 feedback events: never the limit in a row, however many sends.
    let sends = FeedbackLoop<Int, Int>.settleLimit / 100 + 5
    for _ in 0..<sends { loop.send(1) }
    #expect(loop.currentState == 99 + sends * 100)
    #expect(diagnostics.values.isEmpty)
    await loop.shutdown()
  }

  @Test func withAnImmediateSchedulerTheEventsPastTheLimitAreDropped() async {
    let diagnostics = Recorder<String>()
    let loop = FeedbackLoop<Int, Int>(
      initial: 0,
      reduceInPlace: { count, step in count += step },
      feedbacks: [Self.restless],
      scheduler: ImmediateScheduler.instance,
      diagnostics: { diagnostics.append($0.description) }
    )
    #expect(loop.currentState == FeedbackLoop<Int, Int>.settleLimit)
    #expect(diagnostics.values.count == 1)
    await loop.shutdown()
  }
}
