import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct DebugTests {
  @Test func logsEveryEventAndTheSubscriptionsEdges() {
    let log = Recorder<String>()
    let source = PublishSubject<Int, Never>()
    let received = Recorder<Int>()
    let subscription =
      source
      .debug("numbers", log: { log.append($0) })
      .subscribe(onNext: { received.append($0) })

    source.onNext(1)
    source.onNext(2)
    source.onCompleted()

    #expect(received.values == [1, 2])
    #expect(
      log.values == [
        "numbers -> subscribed",
        "numbers -> Event next(1)",
        "numbers -> Event next(2)",
        "numbers -> Event completed",
        "numbers -> isDisposed",
      ]
    )
    subscription.dispose()
  }

  @Test func logsAFailure() {
    let log = Recorder<String>()
    let subscription = Observable<Int, TestError>.error(TestError("boom"))
      .debug("failing", log: { log.append($0) })
      .subscribe(onError: { _ in })
    #expect(
      log.values == [
        "failing -> subscribed", "failing -> Event error(boom)", "failing -> isDisposed",
      ]
    )
    subscription.dispose()
  }

  @Test func identifiesTheCallSiteByDefault() {
    let log = Recorder<String>()
    let subscription = Observable.just(1).debug(log: { log.append($0) }).subscribe(onNext: { _ in })
    #expect(log.values.first?.hasPrefix("CascadeStreamsTests/DebugTests.swift:") == true)
    #expect(log.values.first?.hasSuffix("(identifiesTheCallSiteByDefault()) -> subscribed") == true)
    subscription.dispose()
  }

  /// What it is for: ending a chain whose type is spelled out, as ReactorKit's README does.
  @Test func endsAChainTypedAsAnObservable() {
    func transform(action: Observable<Int, Never>) -> Observable<Int, Never> {
      action.debug("action", log: { _ in })
    }
    let received = Recorder<Int>()
    let subscription = transform(action: .from([1, 2])).subscribe(onNext: { received.append($0) })
    #expect(received.values == [1, 2])
    subscription.dispose()
  }
}
