import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// `Store.run(_:id:cancelInFlight:stream:)`: a stream of actions as an effect of the store's
/// registry, on virtual time.
@Suite(.checksResources)
struct StreamEffectTests {
  static func log() -> Store<[String], String> {
    Store(initialState: []) { log, line in log.append(line) }
  }

  // Subscribed at once: a stream on virtual time has scheduled its work when `run` returns, so
  // advancing the clock delivers it; the effect counts until the stream completes, and `finish`
  // returns once it has.
  @Test func aStreamRunsAtOnceAndEndsWithItsLastElement() async {
    let clock = TestScheduler()
    let store = Self.log()
    store.run(
      "ticks",
      stream: Observable.from(["a", "b"]).delay(.seconds(1), scheduler: clock)
    )
    #expect(store.effectsInFlight == 1)
    await clock.advance(by: .seconds(1))
    await store.finish()
    #expect(store.state == ["a", "b"])
    #expect(store.effectsInFlight == 0)
  }

  // AT-26 for streams: a later stream with the same id and `cancelInFlight` disposes of the
  // earlier one, whose elements never arrive; `cancel(id:)` disposes of the later one.
  @Test func theLatestStreamWinsAndCancelEndsIt() async {
    let clock = TestScheduler()
    let store = Self.log()
    let disposed = Recorder<String>()
    func search(_ query: String) -> Observable<String, Never> {
      Observable.just(query).delay(.seconds(1), scheduler: clock)
        .do(onDispose: { disposed.append(query) }).asObservable()
    }
    store.run("search s", id: "search", cancelInFlight: true, stream: search("s"))
    await clock.advance(by: .milliseconds(500))
    store.run("search sw", id: "search", cancelInFlight: true, stream: search("sw"))
    #expect(disposed.values == ["s"])
    #expect(store.effectsInFlight == 1)
    await clock.advance(by: .seconds(1))
    await store.settle()
    #expect(store.state == ["sw"])
    store.run("search swi", id: "search", stream: search("swi"))
    store.cancel(id: "search")
    await store.finish()
    #expect(disposed.values == ["s", "sw", "swi"])
    #expect(store.state == ["sw"])
  }

  // The store's shutdown disposes of a stream that never ends.
  @Test func shutdownEndsAStream() async {
    let store = Self.log()
    let disposed = Counter()
    store.run(stream: Observable<String, Never>.never().do(onDispose: { disposed.increment() }))
    #expect(store.effectsInFlight == 1)
    await store.shutdown()
    #expect(disposed.value == 1)
    #expect(store.effectsInFlight == 0)
  }
}
