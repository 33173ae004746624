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

  // AT-14, synchronously: a state reduced on the main queue is delivered before `send` returns,
  // even while other work of the shared `MainScheduler.instance` waits on the main queue (another
  // store's delivery, a test running in parallel). Each store delivers through a main scheduler
  // of its own, whose "run now" decision counts only its own waiting deliveries.
  @Test(arguments: Architecture.allCases)
  @MainActor
  func aSendOnMainIsDeliveredAtOnceWhileOtherMainWorkWaits(_ architecture: Architecture) async {
    let otherWorkRan = Watched(false)
    // Runs at once (on the main queue, nothing waiting); what it schedules waits on the main
    // queue until this test suspends.
    MainScheduler.instance.schedule {
      MainScheduler.instance.schedule { otherWorkRan.set(true) }
    }
    let app = LedgerApp(architecture, options: LedgerOptions(producers: 1, mainDelivery: true))
    let probe = MainProbe()
    let subscription = app.subscribe { ledger in
      MainActor.assumeIsolated { probe.record(ledger.count) }
    }
    #expect(probe.counts == [0])
    app.send(.entry(producer: 0, sequence: 0, amount: 1))
    app.send(.entry(producer: 0, sequence: 1, amount: 1))
    #expect(probe.counts == [0, 1, 2])
    // The other work was waiting all along (the condition this test is about), and runs once
    // the main actor suspends.
    #expect(otherWorkRan.value == false)
    #expect(await otherWorkRan.wait { $0 })
    subscription.dispose()
  }
}
