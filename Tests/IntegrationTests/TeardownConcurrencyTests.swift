import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Foundation
import Synchronization
import Testing

/// Releasing a store, reactor or loop while its work runs on other threads: the work ends,
/// nothing is delivered afterwards, nothing leaks, and the object itself is deallocated.
// The time limit only turns a hang into a failure: it counts the time the tests wait for their
// turn behind the other resource-checked tests (the stress test takes minutes on a busy machine),
// so it is far above what they need.
@Suite(.checksResources, .timeLimit(.minutes(30)))
struct TeardownConcurrencyTests {
  /// A weak reference the sender threads share.
  final class WeakApp: @unchecked Sendable {
    // Safety: `app` is written once, in `init`, before the box is shared; afterwards it is only
    // loaded, and loading a weak reference while its object is released is thread-safe.
    weak var app: LedgerApp?

    init(_ app: LedgerApp?) {
      self.app = app
    }

    /// Sends `input` if the app is still alive, holding it only for the call; returns whether
    /// it was.
    func send(_ input: LedgerInput) -> Bool {
      guard let app else { return false }
      app.send(input)
      return true
    }
  }

  static let rounds = 10

  // AT-31, AT-32, AT-39 and AT-40 under concurrency, on every architecture, 10 rounds: the app
  // runs an async task that sends a tick on every turn and a stream on a background timer (a
  // store's commands, a reactor's operation and mutation stream, a loop's effects); one thread
  // sends entries through a weak reference and another sends ticks through the handle the task
  // escaped. The test drops the last strong reference (the last release may happen on the
  // sender thread). Then the object is deallocated (its weak probe is nil); both pieces of work
  // observe their end (the task sees its cancellation and stops, the stream is disposed); no state is
  // delivered after that, though the escaped handle keeps sending (its sends are dropped); and
  // every stream resource is released (the count is back where it was before the round).
  @Test(arguments: Architecture.allCases)
  func releasingWithWorkInFlightEndsItAndDeliversNothingAfter(
    _ architecture: Architecture
  ) async throws {
    // The test's own resource account: other tests run in parallel and move the process total.
    let account = try #require(ResourceAccount.current)
    for round in 0..<Self.rounds {
      let resourcesBefore = account.live
      let probe = WorkProbe()
      // Late sends are reported as diagnostics; collected here, not as test failures.
      let diagnostics = Recorder<String>()
      var app: LedgerApp? = LedgerApp(
        architecture,
        options: LedgerOptions(
          producers: 2,
          work: probe,
          diagnostics: { diagnostics.append($0.description) }
        )
      )
      weak let weakObject = app?.object
      let released = Atomic<Bool>(false)
      let late = Counter()
      // The latest state, delivered synchronously on the thread that reduced it.
      let latest = Watched<Ledger?>(nil)
      let subscription = app?.subscribe { ledger in
        if released.load(ordering: .acquiring) { late.increment() }
        latest.set(ledger)
      }
      app?.startWork(.task)
      app?.startWork(.stream)

      // One thread sends through a weak reference until the app is gone (the last release may
      // happen there); another sends ticks through a handle the work escaped, before, during and
      // after the release, until told to stop.
      let shared = WeakApp(app)
      let stop = Atomic<Bool>(false)
      let afterRelease = Counter()
      let entriesStopped = Signal()
      let senders = Task {
        await runOnThreads(2, timeout: .seconds(60)) { thread in
          // Each pauses between sends, which paces the work (see `LedgerApp.tick`); no check
          // depends on how long.
          if thread == 0 {
            var sequence = 0
            while shared.send(.entry(producer: 0, sequence: sequence, amount: 1)) {
              sequence += 1
              usleep(20)
            }
            entriesStopped.fire()
          } else {
            // Paced by progress, not by time: while the app lives, this thread's ticks run at
            // most a few ahead of the ticks reduced, so that the thread draining the queue (the
            // sender of entries, with the sending thread's isolation) always catches up, however
            // slow the machine (under TSan and load, a tick every 20 µs outran it).
            var sent = 0
            while !stop.load(ordering: .acquiring) {
              let isReleased = released.load(ordering: .acquiring)
              if isReleased || sent <= (latest.value?.ticks ?? 0) + 8 {
                for send in probe.escaped.withLock({ $0 }) { send(.tick) }
                sent += 1
              }
              if isReleased { afterRelease.increment() }
              usleep(20)
            }
          }
        }
      }
      #expect(
        await probe.started.wait { $0 == 2 },
        "round \(round): the work did not start"
      )
      #expect(
        await latest.wait { $0.map { $0.ticks >= 10 && $0.last[0] >= 10 } ?? false },
        "round \(round): the work and the senders did not send"
      )

      app = nil

      // The work ends only when the object is torn down: its deinit cancels the task and
      // disposes the stream.
      #expect(
        await probe.ended.wait { $0 == 2 },
        """
        round \(round): the work in flight did not end (\(probe.ended.value) of 2 ended: \
        \(probe.events.withLock { $0 }); the \(architecture) deallocated: \(weakObject == nil))
        """
      )
      // The sender of entries stops once it finds the app gone. The teardown ran where the last
      // reference went: here (`app = nil` returned after it) or on that thread, before it looked
      // again. Once it has stopped, the teardown is over.
      #expect(await entriesStopped.wait(), "round \(round): the entries did not stop")
      #expect(weakObject == nil, "round \(round): the \(architecture) was not deallocated")
      released.store(true, ordering: .releasing)
      // Late sends through the escaped handle are dropped.
      #expect(await afterRelease.wait(forAtLeast: 100))
      stop.store(true, ordering: .releasing)
      #expect(await senders.value, "round \(round): the senders did not stop")
      #expect(late.value == 0, "round \(round): a state was delivered after the teardown")
      subscription?.dispose()
      probe.escaped.withLock { $0.removeAll() }
      // Every resource of the round is counted back once every thread that could still release
      // one has passed that point:
      // - the object's teardown is over (above);
      // - the tasks of the work have ended and the architecture has finished with them: the holds
      //   their closures captured are gone;
      // - the ticks running on the timers' queue have returned (a barrier on that queue; later
      //   ones find their timer disposed and do nothing).
      #expect(
        await probe.held.wait { $0 == 0 },
        "round \(round): the architecture still holds the work"
      )
      await probe.drainTimers()
      #expect(
        account.live == resourcesBefore,
        "round \(round): \(account.live - resourcesBefore) stream resource(s) still live"
      )
    }
  }
}
