import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct DoTests {
  @Test func runsTheSideEffectsInOrder() {
    let log = Recorder<String>()
    let source = PublishSubject<Int, TestError>()
    let subscription =
      source
      .do(
        onNext: { log.append("do next \($0)") },
        onError: { log.append("do error \($0)") },
        onCompleted: { log.append("do completed") },
        onSubscribe: { log.append("subscribe") },
        onSubscribed: { log.append("subscribed") },
        onDispose: { log.append("dispose") }
      )
      .subscribe(
        onNext: { log.append("next \($0)") },
        onError: { log.append("error \($0)") }
      )
    source.onNext(1)
    source.onError(TestError("e"))
    #expect(
      log.values == [
        "subscribe", "subscribed", "do next 1", "next 1", "do error e", "error e", "dispose",
      ]
    )
    subscription.dispose()
    #expect(log.values.count == 7)
  }

  @Test func onDisposeRunsOnceWhenTheSubscriberDisposes() {
    let disposals = Counter()
    let completions = Counter()
    let source = PublishSubject<Int, Never>()
    let subscription =
      source
      .do(onCompleted: { completions.increment() }, onDispose: { disposals.increment() })
      .subscribe { _ in }
    subscription.dispose()
    subscription.dispose()
    #expect(disposals.value == 1)
    #expect(completions.value == 0)
    #expect(!source.hasObservers)
  }

  @Test func keepsTheChainSpecializedAndTakeStillStopsTheProducer() {
    let seen = Recorder<Int>()
    let received = Recorder<Int>()
    Observable.from(1...).do(onNext: { seen.append($0) }).take(2)
      .subscribe(onNext: { received.append($0) })
    #expect(seen.values == [1, 2])
    #expect(received.values == [1, 2])
  }
}
