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
@Suite(.checksResources, .timeLimit(.minutes(10)))
struct StressConcurrencyTests {
  static let producers = 16

  /// 50,000, divided by `CASCADE_STRESS_SCALE` when it is set (sanitizer runs).
  static var inputsPerProducer: Int {
    let scale = ProcessInfo.processInfo.environment["CASCADE_STRESS_SCALE"].flatMap(Int.init) ?? 1
    return 50_000 / max(scale, 1)
  }

  /// What a subscriber saw: every state's `count` must be one more than the previous one.
  final class Watch: Sendable {
    private let seen = LockedValue((first: -1, last: -1, deliveries: 0, gaps: 0))

    init() {}

    func see(_ ledger: Ledger) {
      seen.withLock {
        if $0.deliveries == 0 {
          $0.first = ledger.count
        } else if ledger.count != $0.last + 1 {
          $0.gaps += 1
        }
        $0.last = ledger.count
        $0.deliveries += 1
      }
    }

    var first: Int { seen.withLock { $0.first } }
    var last: Int { seen.withLock { $0.last } }
    var deliveries: Int { seen.withLock { $0.deliveries } }
    var gaps: Int { seen.withLock { $0.gaps } }
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

    let finished = await runOnThreads(producers + 2, timeout: .seconds(540)) { index in
      if index < producers {
        for sequence in 0..<perProducer {
          app.send(.entry(producer: index, sequence: sequence, amount: index + 1))
        }
        producing.subtract(1, ordering: .releasing)
      } else {
        // Subscribers come and go while the producers send.
        repeat {
          let watch = Watch()
          let subscription = app.subscribe { watch.see($0) }
          for _ in 0..<100 where watch.deliveries < 3 { Thread.sleep(forTimeInterval: 0.000_01) }
          subscription.dispose()
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
    // A subscription disposed before the processing thread got to it may see nothing; the
    // others see at least the state they joined at.
    #expect(watches.contains { $0.deliveries > 0 })
    #expect(watches.reduce(0) { $0 + $1.gaps } == 0)
    wholeSubscription.dispose()
  }
}
