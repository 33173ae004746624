import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct DisposableConcurrencyTests {
  // AT-08: `setDisposable` and `dispose` race, in both orders, then `dispose` three more times:
  // the teardown runs exactly once every round.
  @Test(arguments: [false, true])
  func singleAssignmentTearsDownExactlyOnce(disposeFirst: Bool) {
    let wrong = Counter()
    for _ in 0..<1_000 {
      let teardowns = Counter()
      let single = SingleAssignmentDisposable()
      let finished = runOnThreads(2, timeout: .seconds(30)) { index in
        if (index == 0) == disposeFirst {
          single.dispose()
        } else {
          single.setDisposable(Disposables.create { teardowns.increment() })
        }
      }
      #expect(finished)
      single.dispose()
      single.dispose()
      single.dispose()
      if teardowns.value != 1 { wrong.increment() }
    }
    #expect(wrong.value == 0)
  }

  @Test func compositeDisposesEachExactlyOnceUnderRaces() {
    let wrong = Counter()
    for _ in 0..<300 {
      let composite = CompositeDisposable()
      let teardowns = Counter()
      let finished = runOnThreads(4, timeout: .seconds(30)) { index in
        if index == 0 {
          composite.dispose()
        } else {
          for _ in 0..<10 { composite.insert(Disposables.create { teardowns.increment() }) }
        }
      }
      #expect(finished)
      composite.dispose()
      if teardowns.value != 30 { wrong.increment() }
    }
    #expect(wrong.value == 0)
  }
}
