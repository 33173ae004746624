import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Foundation
import Synchronization
import Testing

/// Sixteen producers × 50,000 entries into one store, reactor or loop, while subscribers come
/// and go on other threads: nothing is lost or duplicated, each producer's order is kept, the
/// reducer never overlaps, every subscriber sees every state in order, and the final state is
/// exact.
///
/// Size: the plain `swift test` run sends the full 16 × 50,000 per architecture. Under a
/// sanitizer (TSan, ASan) the same test would take minutes on CI's two cores, so `.ci/run` sets
/// `CASCADE_STRESS_SCALE` (a divisor of the inputs per producer) for those runs; the threads,
/// the subscriber churn and every check stay the same.
// The time limit only turns a hang into a failure: it counts the time the test waits for its turn
// behind the other resource-checked tests, and the run itself takes minutes on a busy machine.
@Suite(.checksResources, .timeLimit(.minutes(30)))
struct StressConcurrencyTests {
  static let producers = 16

  /// 50,000, divided by `CASCADE_STRESS_SCALE` when it is set (sanitizer runs).
  static var inputsPerProducer: Int {
    let scale = ProcessInfo.processInfo.environment["CASCADE_STRESS_SCALE"].flatMap(Int.init) ?? 1
    return 50_000 / max(scale, 1)
  }

  /// What a subscriber saw: every state's `count` must be one more than the previous one.
  final class Watch: Sendable {
    private struct Seen {
      var first = -1
      var last = -1
      var deliveries = 0
      var gaps = 0
      /// Whether the producers are done: no state is coming that the subscriber has not seen.
      var producersDone = false
    }

    private let seen = Watched(Seen())

    init() {}

    func see(_ ledger: Ledger) {
      seen.update {
        if $0.deliveries == 0 {
          $0.first = ledger.count
        } else if ledger.count != $0.last + 1 {
          $0.gaps += 1
        }
        $0.last = ledger.count
        $0.deliveries += 1
      }
    }

    /// Tells a held subscriber that no more states are coming.
    func producersAreDone() {
      seen.update { $0.producersDone = true }
    }

    /// Blocks this thread until the subscriber has seen three states, or one once the producers
    /// are done; `false` if not within the (generous) safety timeout.
    ///
    /// A subscriber is always delivered the state it joined at, so the wait ends.
    func waitForStates() -> Bool {
      seen.waitBlocking(timeout: .seconds(120)) {
        $0.deliveries >= 3 || ($0.deliveries >= 1 && $0.producersDone)
      }
    }

    var first: Int { seen.value.first }
    var last: Int { seen.value.last }
    var deliveries: Int { seen.value.deliveries }
    var gaps: Int { seen.value.gaps }
  }

  /// The churned subscribers held now, told when the producers are done.
  final class Holding: Sendable {
    private let contents = LockedValue((done: false, watches: [ObjectIdentifier: Watch]()))

    init() {}

    /// Holds `watch`, or tells it at once if the producers are done already.
    func hold(_ watch: Watch) {
      let done = contents.withLock { contents in
        if !contents.done { contents.watches[ObjectIdentifier(watch)] = watch }
        return contents.done
      }
      if done { watch.producersAreDone() }
    }

    func release(_ watch: Watch) {
      contents.withLock { _ = $0.watches.removeValue(forKey: ObjectIdentifier(watch)) }
    }

    /// Marks the producers done and tells every held subscriber.
    func producersAreDone() {
      let held = contents.withLock { contents in
        contents.done = true
        return Array(contents.watches.values)
      }
      for watch in held { watch.producersAreDone() }
    }
  }

  // AT-10, AT-11, AT-12 and AT-13 at scale, on every architecture: 16 threads × 50,000 tagged
  // entries (each carries its producer and sequence; the reducer counts any entry that is not
  // its producer's next) while two threads subscribe and unsubscribe in a loop. Nothing is
  // lost, duplicated or reordered; the reducer never overlaps (depth 1); a subscriber held for
  // the whole run sees every state, in order, ending with the final one; every churned
  // subscriber sees consecutive states from the one it joined at; the final state is exact; and
  // no subscription is left behind (the suite's resource check, AT-40).
  @Test(arguments: Architecture.allCases)
  func manyProducersLoseNothingAndKeepTheirOrder(_ architecture: Architecture) async {
    let producers = Self.producers
    let perProducer = Self.inputsPerProducer
    let gauge = DepthGauge()
    let app = LedgerApp(
      architecture,
      options: LedgerOptions(producers: producers, reducerGauge: gauge)
    )
    let whole = Watch()
    let wholeSubscription = app.subscribe { whole.see($0) }
    let producing = Atomic<Int>(producers)
    let churned = LockedValue([Watch]())
    let holding = Holding()
    let stuck = Counter()

    let finished = await runOnThreads(producers + 2, timeout: .seconds(540)) { index in
      if index < producers {
        for sequence in 0..<perProducer {
          app.send(.entry(producer: index, sequence: sequence, amount: index + 1))
        }
        if producing.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
          holding.producersAreDone()
        }
      } else {
        // Subscribers come and go while the producers send, each held until it has seen a few
        // states (or its first, once no more are coming).
        repeat {
          let watch = Watch()
          holding.hold(watch)
          let subscription = app.subscribe { watch.see($0) }
          if !watch.waitForStates() { stuck.increment() }
          subscription.dispose()
          holding.release(watch)
          churned.withLock { $0.append(watch) }
        } while producing.load(ordering: .acquiring) > 0
      }
    }

    #expect(finished, "the producers and subscribers did not finish: a deadlock")
    let ledger = app.state
    let inputs = producers * perProducer
    #expect(ledger.count == inputs)
    #expect(ledger.violations == 0)
    #expect(ledger.last == [Int](repeating: perProducer - 1, count: producers))
    #expect(ledger.total == (1...producers).reduce(0, +) * perProducer)
    #expect(gauge.maximum == 1)
    #expect(gauge.calls == inputs)
    #expect(whole.first == 0)
    #expect(whole.gaps == 0)
    #expect(whole.last == inputs)
    #expect(whole.deliveries == inputs + 1)
    let watches = churned.withLock { $0 }
    #expect(watches.count >= 2)
    // Each was held until it saw at least the state it joined at.
    #expect(stuck.value == 0, "a churned subscriber was never delivered a state")
    #expect(watches.allSatisfy { $0.deliveries > 0 })
    #expect(watches.reduce(0) { $0 + $1.gaps } == 0)
    wholeSubscription.dispose()
  }
}
