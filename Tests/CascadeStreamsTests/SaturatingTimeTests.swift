import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Dispatch
import Testing

/// Time never traps: every conversion of a delay saturates.
///
/// A delay of 100 years or more means never, and a negative one now. Issue 19. (Reading a delay
/// typed by a user, NaN refused: `MoviesTimeoutTests`, in the samples' package.)
@Suite(.checksResources)
struct SaturatingTimeTests {
  static let century = Duration.seconds(100 * 365 * 24 * 3600)

  @Test func theLongestDelayIsACentury() {
    #expect(Duration.longestDelay == Self.century)
  }

  // Before: `Int(seconds) * 1_000_000_000` overflowed (a trap) past ~292 years.
  @Test func aSchedulerReadsADelayAsNowAWaitOrNever() {
    #expect(Duration.seconds(-5).schedulingNanoseconds == 0)
    #expect(Duration.zero.schedulingNanoseconds == 0)
    #expect(Duration.milliseconds(1_500).schedulingNanoseconds == 1_500_000_000)
    #expect((Self.century - .seconds(1)).schedulingNanoseconds == 3_153_599_999_000_000_000)
    #expect(Self.century.schedulingNanoseconds == nil)
    #expect(Duration.seconds(Int64.max).schedulingNanoseconds == nil)
  }

  // A dispatch queue given a delay of centuries schedules nothing: work scheduled after it on
  // the same serial queue runs, and the far one has not (a delay that wrapped around to a
  // negative number would have run first).
  @Test(arguments: [Duration.seconds(Int64.max), .seconds(1e10), century])
  func aDispatchQueueNeverRunsAFarDelay(delay: Duration) async {
    let scheduler = SerialDispatchQueueScheduler(label: "far")
    let ran = Recorder<String>()
    let far = scheduler.schedule(after: delay) { ran.append("far") }
    let done = Signal()
    scheduler.schedule(after: .milliseconds(1)) {
      ran.append("near")
      done.fire()
    }
    #expect(await done.wait())
    #expect(ran.values == ["near"])
    far.dispose()
  }

  @Test func theImmediateSchedulerNeverBlocksOnAFarDelay() {
    let ran = Counter()
    ImmediateScheduler.instance.schedule(after: .seconds(Int64.max)) { ran.increment() }
    ImmediateScheduler.instance.schedule(after: .seconds(-1)) { ran.increment() }
    #expect(ran.value == 1)
  }

  // On virtual time too: a timeout of centuries never fires, however far the clock goes; a
  // retry back-off without a maximum (capped at a million years) never retries.
  @Test func virtualTimeNeverReachesAFarDelay() async {
    let scheduler = TestScheduler()
    let events = Recorder<StreamEvent<Int, any Error>>()
    let subscription = Observable<Int, any Error>.never()
      .timeout(.seconds(Int64.max), scheduler: scheduler)
      .subscribe { events.append($0) }
    await scheduler.advance(by: Self.century * 3)
    await scheduler.run()
    #expect(events.values.isEmpty)
    subscription.dispose()
  }
}
