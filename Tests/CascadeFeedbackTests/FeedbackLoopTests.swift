import CascadeFeedback
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct FeedbackLoopTests {
  enum Event: Sendable, Equatable { case increment, decrement }

  // The README's increment example: UI events fed in by input feedbacks.
  @Test func incrementExample() {
    let plus = PublishSubject<Void, Never>()
    let minus = PublishSubject<Void, Never>()
    let loop = FeedbackLoop<Int, Event>(
      initial: 0,
      reduce: { count, event in
        switch event {
        case .increment: count + 1
        case .decrement: count - 1
        }
      },
      feedbacks: [.input(plus.map { .increment }), .input(minus.map { .decrement })],
      scheduler: ImmediateScheduler.instance
    )
    let texts = Recorder<String>()
    let subscription = loop.state.map(String.init).subscribe(onNext: { texts.append($0) })
    plus.onNext()
    plus.onNext()
    minus.onNext()
    #expect(texts.values == ["0", "1", "2", "1"])
    subscription.dispose()
    loop.stop()
  }

  // AT-23: states [0, 1, 3, 6], the reducer saw [1, 2, 3], and a feedback reacting to states
  // sees each exactly once, in order.
  @Test func eventsAndStatesInOrder() {
    let inputs = PublishSubject<Int, Never>()
    let reduced = Recorder<Int>()
    let seen = Recorder<Int>()
    let loop = FeedbackLoop<Int, Int>(
      initial: 0,
      reduce: { total, value in
        reduced.append(value)
        return total + value
      },
      feedbacks: [
        .input(inputs),
        Feedback { states in
          states.do(onNext: { seen.append($0) }).filter { _ in false }.map { $0 }.asObservable()
        },
      ],
      scheduler: ImmediateScheduler.instance
    )
    for value in 1...3 { inputs.onNext(value) }
    #expect(reduced.values == [1, 2, 3])
    #expect(seen.values == [0, 1, 3, 6])
    loop.stop()
  }

  // A feedback that emits synchronously while the state is delivered: the event is reduced after
  // the delivery, against the state that triggered it.
  @Test func synchronousFeedbackIsQueued() {
    let loop = FeedbackLoop<Int, Int>(
      initial: 0,
      reduce: { count, amount in count + amount },
      feedbacks: [
        Feedback(skippingRepeated: { $0 < 5 ? $0 : nil }) { count in Observable.just(1) }
      ],
      scheduler: ImmediateScheduler.instance
    )
    #expect(loop.currentState == 5)
    loop.stop()
  }

  // AT-28 / AT-26: a query change cancels the previous effect, whose late events are dropped.
  @Test func queryChangeCancelsThePreviousEffect() {
    let scheduler = TestScheduler()
    struct Search: Sendable, Equatable {
      var query: String?
      var results: [String] = []
    }
    enum SearchEvent: Sendable {
      case type(String?)
      case results(String)
    }
    let loop = FeedbackLoop<Search, SearchEvent>(
      initial: Search(),
      reduce: { state, event in
        var state = state
        switch event {
        case .type(let query): state.query = query
        case .results(let result): state.results.append(result)
        }
        return state
      },
      feedbacks: [
        Feedback(skippingRepeated: { $0.query }) { query in
          Observable.just(SearchEvent.results(query))
            .delay(.seconds(query == "a" ? 3 : 1), scheduler: scheduler)
        }
      ],
      scheduler: ImmediateScheduler.instance
    )
    loop.send(.type("a"))
    scheduler.advance(by: .seconds(1))
    loop.send(.type("ab"))
    scheduler.advance(by: .seconds(5))
    #expect(loop.currentState.results == ["ab"])
    loop.send(.type(nil))
    scheduler.advance(by: .seconds(5))
    #expect(loop.currentState.results == ["ab"])
    loop.stop()
  }
}
