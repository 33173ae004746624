import CascadeFeedback
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct FeedbackTests {
  // The custom form: from the whole state stream to events.
  @Test func customFeedbackMapsStatesToEvents() async {
    let inputs = PublishSubject<Int, Never>()
    let loop = FeedbackLoop<Int, Int>(
      initialState: 0,
      reduce: { count, amount in count + amount },
      feedbacks: [
        .input(inputs),
        // Resets the count whenever it passes 10.
        Feedback { states in states.filter { $0 > 10 }.map { -$0 }.asObservable() },
      ],
      scheduler: ImmediateScheduler.instance
    )
    let states = Recorder<Int>()
    let subscription = loop.states.subscribe(onNext: { states.append($0) })
    inputs.onNext(4)
    inputs.onNext(8)
    inputs.onNext(3)
    #expect(states.values == [0, 4, 12, 0, 3])
    subscription.dispose()
    await loop.shutdown()
  }

  // An input feedback ignores the state and ends with the loop; its source completing does not
  // stop the loop.
  @Test func inputFeedbackForwardsUntilItsSourceCompletes() async {
    let first = PublishSubject<Int, Never>()
    let second = PublishSubject<Int, Never>()
    let loop = FeedbackLoop<Int, Int>(
      initialState: 0,
      reduce: { count, amount in count + amount },
      feedbacks: [.input(first), .input(second)],
      scheduler: ImmediateScheduler.instance
    )
    first.onNext(1)
    first.onCompleted()
    second.onNext(10)
    loop.send(100)
    #expect(loop.currentState == 111)
    await loop.shutdown()
    second.onNext(1_000)
    #expect(loop.currentState == 111)
  }

  // MARK: - Pullback

  struct App: Sendable, Equatable {
    var counter = 0
    var title = ""
  }

  enum AppEvent: Sendable, Equatable {
    case counter(CounterEvent)
    case rename(String)
  }

  enum CounterEvent: Sendable, Equatable { case increment, reset }

  /// A feedback written for a counter alone: counts up to 3.
  static func countToThree() -> Feedback<Int, CounterEvent> {
    Feedback(skippingRepeated: { $0 < 3 ? $0 : nil }) { _ in Observable.just(.increment) }
  }

  // A feedback pulled back onto a parent state sees the child state and sends parent events.
  @Test func pullbackRunsAChildFeedbackOnAParentState() async {
    let childStates = Recorder<Int>()
    let watch = Feedback<Int, CounterEvent> { states in
      states.do(onNext: { childStates.append($0) }).ignoreElements()
        .map { _ in CounterEvent.reset }.asObservable()
    }
    let loop = FeedbackLoop<App, AppEvent>(
      initialState: App(),
      reduceInPlace: { app, event in
        switch event {
        case .counter(.increment): app.counter += 1
        case .counter(.reset): app.counter = 0
        case .rename(let title): app.title = title
        }
      },
      feedbacks: [
        Self.countToThree().pullback(state: { $0.counter }, event: AppEvent.counter),
        watch.pullback(state: { $0.counter }, event: AppEvent.counter),
      ],
      scheduler: ImmediateScheduler.instance
    )
    #expect(loop.currentState == App(counter: 3, title: ""))
    loop.send(.rename("three"))
    loop.send(.counter(.reset))
    #expect(loop.currentState == App(counter: 3, title: "three"))
    #expect(childStates.values == [0, 1, 2, 3, 3, 0, 1, 2, 3])
    await loop.shutdown()
  }

  // AT-26 through a pullback: a pulled-back effect's queued events are still dropped when it is
  // cancelled.
  @Test func pullbackKeepsCancellationComplete() async {
    let results = PublishSubject<Int, Never>()
    let fired = LockedBox(false)
    // Runs while the counter is 0, incrementing it on each result.
    let child = Feedback<Int, CounterEvent>(skippingRepeated: { $0 == 0 ? $0 : nil }) { _ in
      results.map { _ in CounterEvent.increment }
    }
    let loop = FeedbackLoop<App, AppEvent>(
      initialState: App(),
      reduceInPlace: { app, event in
        switch event {
        case .counter(.increment): app.counter += 1
        case .counter(.reset): app.counter = 0
        case .rename(let title): app.title = title
        }
      },
      feedbacks: [
        // Sees each state before the child: when the counter first leaves 0, makes the child's
        // effect emit; the child then sees the counter at 1 and is cancelled.
        Feedback(start: { context in
          context.states.subscribe(onNext: { app in
            guard app.counter == 1, !fired.value else { return }
            fired.value = true
            results.onNext(1)
          })
        }),
        child.pullback(state: { $0.counter }, event: AppEvent.counter),
      ],
      scheduler: ImmediateScheduler.instance
    )
    loop.send(.counter(.increment))
    #expect(fired.value)
    #expect(loop.currentState.counter == 1)
    loop.send(.counter(.reset))
    results.onNext(1)
    #expect(loop.currentState.counter == 1)
    await loop.shutdown()
  }
}
