import CascadeFeedback
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Dispatch
import Testing

/// `FeedbackLoop.finish()`: the awaitable drain of a loop's effects.
@Suite(.checksResources)
struct FeedbackLoopFinishTests {
  /// Pages to load, one at a time: each loaded page asks for the next, up to `last`.
  struct Paging: Sendable, Equatable {
    var next: Int? = 1
    var loaded: [Int] = []
    var last = 3
  }

  enum Event: Sendable {
    case loaded(Int)
  }

  /// A loop over `Paging` on the immediate scheduler, with one feedback.
  static func pagingLoop(_ feedback: Feedback<Paging, Event>) -> FeedbackLoop<Paging, Event> {
    FeedbackLoop(
      initialState: Paging(),
      reduceInPlace: reduce,
      feedbacks: [feedback],
      scheduler: ImmediateScheduler.instance
    )
  }

  static func reduce(_ state: inout Paging, _ event: Event) {
    switch event {
    case .loaded(let page):
      state.loaded.append(page)
      state.next = page < state.last ? page + 1 : nil
    }
  }

  // finish() waits for an async effect, the event it sends, and the effects that event starts
  // in turn, until no query asks for more.
  @Test func finishWaitsForAsyncEffectsAndTheEffectsTheyStart() async {
    let proceed = Signal()
    let loop = Self.pagingLoop(
      Feedback(skippingRepeated: { $0.next }) { page, send in
        _ = await proceed.wait()
        send(.loaded(page))
      }
    )
    Task { proceed.fire() }
    await loop.finish()
    #expect(loop.currentState.loaded == [1, 2, 3])
    #expect(loop.currentState.next == nil)
  }

  // finish() waits for an effect stream that emits on another thread, until it completes.
  @Test func finishWaitsForEffectStreamsOnOtherThreads() async {
    let proceed = Signal()
    let loop = Self.pagingLoop(
      Feedback(skippingRepeated: { $0.next }) { page in
        Observable<Event, Never>.create { observer in
          DispatchQueue.global().async {
            _ = proceed.waitBlocking()
            observer.onNext(.loaded(page))
            observer.onCompleted()
          }
          return Disposables.empty
        }
      }
    )
    Task { proceed.fire() }
    await loop.finish()
    #expect(loop.currentState.loaded == [1, 2, 3])
  }

  // A stopped loop is at rest: finish() returns though its effect never ended by itself.
  @Test func finishReturnsOnceTheLoopStopped() async {
    let loop = Self.pagingLoop(
      Feedback(skippingRepeated: { $0.next }) { _ in Observable<Event, Never>.never() }
    )
    await loop.shutdown()
    await loop.finish()
    #expect(loop.currentState.loaded.isEmpty)
  }
}
