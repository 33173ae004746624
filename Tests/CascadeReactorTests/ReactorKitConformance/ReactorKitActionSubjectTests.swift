import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// ReactorKit's `ActionSubject` cases (ReactorKit/ReactorKit,
// Tests/ReactorKitTests/ActionSubjectTests.swift). ReactorKit's `ActionSubject` is a subject
// that ignores `error` and `completed`; Cascade's counterpart is a reactor's action input
// (`Reactor.action`, an `ActionInput`), an observer that is not itself a stream. What it passes
// on is read here from the state of a reactor whose state is the last action it got.
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

  #if false  // FIXME(#33): needs an observable action input (`ActionSubject` with observers)
  /// The subject counts one observer per live subscription: disposing one removes it.
  @Test func testObserversCount_disposable() {
    let subject = ActionSubject<Int>()
    let disposable1 = subject.subscribe(onNext: { _ in })
    #expect(subject.observerCount == 1)
    let disposable2 = subject.subscribe(onNext: { _ in })
    #expect(subject.observerCount == 2)
    disposable2.dispose()
    #expect(subject.observerCount == 1)
    disposable1.dispose()
    #expect(subject.observerCount == 0)
  }
  #endif

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
