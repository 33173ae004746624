import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Foundation
import Synchronization
import Testing

/// A replay while other threads send.
///
/// The replayed inputs are processed together, in order, with nothing from elsewhere between
/// them; every input from elsewhere is either processed
/// (before or after the replay) or counted as dropped; an effect started during the replay does
/// not run. Run under the thread sanitizer in CI.
@Suite(.checksResources)
struct ReplayConcurrencyTests {
  enum Input: Sendable, Equatable {
    case replayed(Int)
    case live(thread: Int, sequence: Int)
  }

  /// The most inputs each sending thread sends in a round.
  static let sendsPerThread = 50_000

  @Test func aReplayIsNeverInterleavedWithInputsFromOtherThreads() async {
    for round in 0..<20 {
      let store = Store<[Input], Input>(initialState: []) { log, input in log.append(input) }
      let effects = Counter()
      // A subscriber that starts an effect for each replayed input: none may run.
      let subscription = store.subscribe(on: .synchronous) { [weak store] log in
        guard let store, case .replayed? = log.last else { return }
        store.run("effect") { _, _ in effects.increment() }
      }
      let stop = Atomic<Bool>(false)
      let sent = Counter()
      let started = Signal()
      let senders = Task {
        await runOnThreads(2) { thread in
          var sequence = 0
          // Bounded, so the work does not depend on when the replay gets to start: an unbounded
          // sender, on a loaded machine where this test's task waited seconds for a thread,
          // queued millions of inputs ahead of the replay (3.9 million once, past the senders'
          // two-minute safety net).
          while sequence < Self.sendsPerThread, !stop.load(ordering: .acquiring) {
            store.send(.live(thread: thread, sequence: sequence))
            sequence += 1
            sent.increment()
            if sequence == 10 { started.fire() }
          }
        }
      }
      #expect(await started.wait())
      let replayed = (0..<500).map(Input.replayed)
      let report = await store.replay(replayed)
      stop.store(true, ordering: .releasing)
      #expect(await senders.value)
      await store.finish()

      let log = store.state
      let firstReplayed = log.firstIndex(of: .replayed(0)) ?? log.endIndex
      #expect(
        Array(log[firstReplayed...].prefix(replayed.count)) == replayed,
        "round \(round): the replay was interleaved"
      )
      let live = log.count - replayed.count
      #expect(live + report.droppedInputs == sent.value, "round \(round): \(report)")
      #expect(effects.value == 0, "round \(round): an effect ran during the replay")
      #expect(report.skippedEffects == replayed.count)
      subscription.dispose()
    }
  }
}
