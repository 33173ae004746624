import CascadeFeedback
import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// A loop whose feedbacks answer every state with an event never settles: its `init` still
/// returns.
///
/// After its settle limit of such events it reports one diagnostic, and the loop goes on at one
/// event per millisecond of its scheduler (issue 33; ReactiveFeedback's `test_emits_initial`
/// hung Cascade's `init` before). The loops here are made with a limit of
/// 100 (the package initializer), where `FeedbackLoop.settleLimit` is 1,000,000.
@Suite(.checksResources)
struct FeedbackLoopSettleTests {
  static let limit = 100

  /// A feedback that answers every state below `bound` with an increment.
  static func counting(below bound: Int) -> Feedback<Int, Int> {
    Feedback { states in
      states.flatMapLatest { count in count < bound ? Observable.just(1) : .empty() }
    }
  }

  static func makeLoop(
    _ feedback: Feedback<Int, Int>,
    scheduler: any Scheduler,
    diagnostics: Recorder<String>
  ) -> FeedbackLoop<Int, Int> {
    FeedbackLoop(
      initialState: 0,
      reduceInPlace: { count, step in count += step },
      feedbacks: [feedback],
      scheduler: scheduler,
      deliversEveryState: false,
      middlewares: [],
      diagnostics: { diagnostics.append($0.description) },
      startingFeedbacks: true,
      hoppingEvents: false,
      settleLimit: limit
    )
  }

  @Test func initReturnsPastTheLimitWithOneDiagnosticThenGoesOnOnePerMillisecond() async {
    let scheduler = TestScheduler()
    let diagnostics = Recorder<String>()
    let loop = Self.makeLoop(
      Self.counting(below: .max),
      scheduler: scheduler,
      diagnostics: diagnostics
    )
    #expect(loop.currentState == Self.limit)
    #expect(diagnostics.values.count == 1)
    #expect(diagnostics.values.first?.contains("did not settle") == true)
    // Each millisecond reduces one more event, which is answered by the next.
    await scheduler.advance(by: .zero)
    #expect(loop.currentState == Self.limit)
    await scheduler.advance(by: .milliseconds(1))
    #expect(loop.currentState == Self.limit + 1)
    await scheduler.advance(by: .milliseconds(3))
    #expect(loop.currentState == Self.limit + 4)
    #expect(diagnostics.values.count == 1)
    await loop.shutdown()
    await scheduler.advance(by: .milliseconds(10))
    #expect(loop.currentState == Self.limit + 4)
  }

  @Test func anEventFromOutsideStartsANewCount() async {
    let diagnostics = Recorder<String>()
    // Settles: answers each state up to the next multiple of 50, fewer than the limit.
    let loop = Self.makeLoop(
      Feedback { states in
        states.flatMapLatest { count in count % 50 == 49 ? .empty() : Observable.just(1) }
      },
      scheduler: TestScheduler(),
      diagnostics: diagnostics
    )
    #expect(loop.currentState == 49)
    // Each send runs 50 feedback events: never the limit in a row, however many sends.
    for _ in 0..<10 { loop.send(1) }
    #expect(loop.currentState == 49 + 10 * 50)
    #expect(diagnostics.values.isEmpty)
    await loop.shutdown()
  }

  @Test func withAnImmediateSchedulerTheLoopReportsAndGoesOnLosingNothing() async {
    let diagnostics = Recorder<String>()
    let loop = Self.makeLoop(
      Self.counting(below: 3 * Self.limit),
      scheduler: ImmediateScheduler.instance,
      diagnostics: diagnostics
    )
    #expect(loop.currentState == 3 * Self.limit)
    #expect(diagnostics.values.count == 1)
    await loop.shutdown()
  }
}
