import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// Where an architecture delivers on the main queue by default — a store's `subscribe`, a
/// reactor's `state`, a loop's `state` — every delivery runs on the main actor, in reduce order,
/// including for inputs sent from background threads.
///
/// The tests run on the main actor and await, so the main queue is serviced (on Linux too).
@Suite(.checksResources)
struct MainThreadDeliveryConcurrencyTests {
  /// Main-actor state that only a delivery isolated to the main actor can touch.
  ///
  /// Each delivery also publishes its count in ``delivered``, which the test waits on: the wait
  /// suspends the main actor, so the main queue goes on delivering meanwhile.
  @MainActor
  final class MainProbe {
    var counts: [Int] = []
    nonisolated let delivered = Watched(-1)

    func record(_ count: Int) {
      counts.append(count)
      delivered.set(count)
    }
  }

  // AT-09 and AT-14, on every architecture with its default delivery: four background threads
  // send 500 entries each. Every delivery is on the main thread, and the runtime agrees that it
  // is isolated to the main actor (`MainActor.assertIsolated()`, then `assumeIsolated` to record
  // into main-actor state; a delivery off main is counted instead of crashing the run); the
  // recorded states are in reduce order and end with the final one.
  @Test(arguments: Architecture.allCases)
  @MainActor
  func backgroundSendersAreDeliveredOnMain(_ architecture: Architecture) async {
    let producers = 4
    let perProducer = 500
    let app = LedgerApp(
      architecture,
      options: LedgerOptions(producers: producers, mainDelivery: true)
    )
    let probe = MainProbe()
    let offMain = Counter()
    let subscription = app.subscribe { ledger in
      guard MainScheduler.isOnMainQueue else {
        offMain.increment()
        return
      }
      MainActor.assertIsolated("a state delivered on main is not isolated to the main actor")
      MainActor.assumeIsolated { probe.record(ledger.count) }
    }

    let finished = await runOnThreads(producers) { producer in
      for sequence in 0..<perProducer {
        app.send(.entry(producer: producer, sequence: sequence, amount: 1))
      }
    }

    #expect(finished)
    let inputs = producers * perProducer
    // Woken by the delivery of the final state; the main queue delivers while this waits.
    #expect(await probe.delivered.wait { $0 == inputs })
    #expect(probe.counts.last == inputs)
    #expect(offMain.value == 0)
    #expect(probe.counts.first == 0)
    #expect(zip(probe.counts, probe.counts.dropFirst()).allSatisfy { $0 < $1 })
    #expect(app.state.violations == 0)
    subscription.dispose()
  }

  // AT-14 from the main actor and a background task at once: both producers' states are
  // delivered on main, in reduce order, and each producer's order is kept.
  @Test(arguments: Architecture.allCases)
  @MainActor
  func mainAndBackgroundSendersInterleaveOnMain(_ architecture: Architecture) async {
    let app = LedgerApp(architecture, options: LedgerOptions(producers: 2, mainDelivery: true))
    let probe = MainProbe()
    let offMain = Counter()
    let subscription = app.subscribe { ledger in
      guard MainScheduler.isOnMainQueue else {
        offMain.increment()
        return
      }
      MainActor.assumeIsolated { probe.record(ledger.count) }
    }
    let background = Task.detached {
      for sequence in 0..<1_000 { app.send(.entry(producer: 1, sequence: sequence, amount: 1)) }
    }
    for sequence in 0..<1_000 {
      app.send(.entry(producer: 0, sequence: sequence, amount: 1))
      await Task.yield()
    }
    await background.value
    #expect(await probe.delivered.wait { $0 == 2_000 })
    #expect(probe.counts.last == 2_000)
    #expect(offMain.value == 0)
    #expect(zip(probe.counts, probe.counts.dropFirst()).allSatisfy { $0 < $1 })
    #expect(app.state.violations == 0)
    #expect(app.state.last == [999, 999])
    subscription.dispose()
  }
}
