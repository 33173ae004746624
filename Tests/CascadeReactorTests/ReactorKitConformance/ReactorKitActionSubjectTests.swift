import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// ReactorKit's `ActionSubject` cases (ReactorKit/ReactorKit,
// Tests/ReactorKitTests/ActionSubjectTests.swift). ReactorKit's `ActionSubject` is a subject
// that ignores `error` and `completed`; Cascade's counterpart is a reactor's action input
// (`Reactor.action`, an `ActionInput`), an observer of actions and a stream of the actions sent
// to the reactor. What it passes on is read here from the state of a reactor whose state is the
// last action it got.
//
// Cascade's `HotObservable` plays nothing after a terminal event (RxTest's goes on), so the
// peer's action after a terminal event is played from a second source bound to the same input.

/// A reactor whose state is the last action it was sent: `mutate` defaults to applying the
/// action as a mutation.
private final class LastActionReactor: Reactor {
  typealias Action = Int

  let initialState: Int? = nil

  var scheduler: any Scheduler { ImmediateScheduler.instance }

  func reduce(state: Int?, mutation: Int) -> Int? { mutation }
}

@Suite(.checksResources)
struct ReactorKitActionSubjectTests {
  let scheduler = TestScheduler()

  /// The action input counts one observer per live subscription: disposing one removes it;
  /// each observer sees the actions sent while it is subscribed.
  @Test func testObserversCount_disposable() {
    let reactor = LastActionReactor()
    let first = Recorder<Int>()
    let disposable1 = reactor.action.subscribe(onNext: { first.append($0) })
    #expect(reactor.action.observerCount == 1)
    let disposable2 = reactor.action.subscribe(onNext: { _ in })
    #expect(reactor.action.observerCount == 2)
    reactor.action.onNext(1)
    disposable2.dispose()
    #expect(reactor.action.observerCount == 1)
    disposable1.dispose()
    #expect(reactor.action.observerCount == 0)
    reactor.action.onNext(2)
    #expect(first.values == [1])
    #expect(reactor.currentState == 2)
  }

  /// Every action bound to the input passes through, at the time it was sent.
  @Test func testEmitNexts() {
    let reactor = LastActionReactor()
    let disposeBag = DisposeBag()
    scheduler.createHotObservable([
      .next(.seconds(100), 1), .next(.seconds(200), 2), .next(.seconds(300), 3),
    ])
    .bind(to: reactor.action)
    .disposed(by: disposeBag)

    let observer = scheduler.start(created: .zero, subscribed: .zero) {
      reactor.state.compactMap { $0 }
    }
    observer.assertEvents([
      .next(.seconds(100), 1), .next(.seconds(200), 2), .next(.seconds(300), 3),
    ])
  }

  /// A failure of a bound source does not reach the input: actions sent after it still pass.
  @Test func testIgnoreError() {
    let reactor = LastActionReactor()
    let disposeBag = DisposeBag()
    let source: HotObservable<Int, TestError> = scheduler.createHotObservable([
      .next(.seconds(100), 1), .error(.seconds(200), TestError("source failed")),
    ])
    let later: HotObservable<Int, TestError> = scheduler.createHotObservable([
      .next(.seconds(300), 3)
    ])
    // Deliberate difference: ReactorKit's `ActionSubject` accepts a failing source and drops
    // its error; Cascade's `ActionInput` has `Failure == Never`, so a failing source is bound by
    // its subscriber, which handles the failure (here: ignores it); typed failures make an error
    // unable to reach the input.
    for stream in [source, later] {
      stream.subscribe(onNext: { reactor.action.onNext($0) }).disposed(by: disposeBag)
    }

    let observer = scheduler.start(created: .zero, subscribed: .zero) {
      reactor.state.compactMap { $0 }
    }
    observer.assertEvents([.next(.seconds(100), 1), .next(.seconds(300), 3)])
  }

  /// The completion of a bound source does not end the input: actions sent after it still pass.
  @Test func testIgnoreCompleted() {
    let reactor = LastActionReactor()
    let disposeBag = DisposeBag()
    let source = scheduler.createHotObservable([
      .next(.seconds(100), 1), .completed(.seconds(200)),
    ])
    let later = scheduler.createHotObservable([.next(.seconds(300), 3)])
    source.bind(to: reactor.action).disposed(by: disposeBag)
    later.bind(to: reactor.action).disposed(by: disposeBag)

    let observer = scheduler.start(created: .zero, subscribed: .zero) {
      reactor.state.compactMap { $0 }
    }
    observer.assertEvents([.next(.seconds(100), 1), .next(.seconds(300), 3)])
  }
}
