import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The lock every piece of shared state in Cascade sits behind, tested on its own.
///
/// The counters these tests guard are plain memory, not atomics: only the lock under test keeps
/// the threads apart, so a lock that let two threads in at once loses increments (and, under
/// ThreadSanitizer, which CI runs this suite with, is reported as a data race).
@Suite(.checksResources)
struct LockConcurrencyTests {
  /// A plain integer shared by threads with no synchronization of its own.
  final class Unguarded: @unchecked Sendable {
    // Safety: deliberately none. Only the lock under test guards `pointer.pointee`; a test
    // that sees a wrong count (or a ThreadSanitizer report) has found a broken lock.
    let pointer = UnsafeMutablePointer<Int>.allocate(capacity: 1)

    init() { pointer.initialize(to: 0) }

    deinit { pointer.deallocate() }

    /// Reads, then writes, as two separate steps: the classic lost update if two threads
    /// interleave.
    func increment() {
      let value = pointer.pointee
      pointer.pointee = value + 1
    }

    var value: Int { pointer.pointee }
  }

  enum Failure: Error, Equatable {
    case inside(Int)
  }

  // N threads × M increments of a plain counter under the lock: exactly N × M.
  @Test func mutualExclusionUnderContention() async {
    let threads = 8
    let increments = 20_000
    let lock = Lock()
    let counter = Unguarded()
    let finished = await runOnThreads(threads) { index in
      for step in 0..<increments {
        // Both ways of taking the lock, interleaved, so that each excludes the other.
        if (index + step) % 2 == 0 {
          lock.withLock { counter.increment() }
        } else {
          lock.lock()
          counter.increment()
          lock.unlock()
        }
      }
    }
    #expect(finished)
    #expect(lock.withLock { counter.value } == threads * increments)
  }

  // The same through `LockedValue`, whose value is the plain counter.
  @Test func lockedValueExcludesUnderContention() async {
    let threads = 8
    let increments = 20_000
    let total = LockedValue(0)
    let finished = await runOnThreads(threads) { index in
      for step in 0..<increments {
        if (index + step) % 2 == 0 {
          total.withLock { value in
            let read = value
            value = read + 1
          }
        } else {
          total.lock()
          total.unsafeValue.pointee += 1
          total.unlock()
        }
      }
    }
    #expect(finished)
    #expect(total.withLock { $0 } == threads * increments)
  }

  // A holder keeps the lock while every other thread arrives and queues behind it, long enough
  // that they give up spinning and sleep; then it lets go. Every thread gets the lock in turn
  // and finishes: no wake-up is lost. Many rounds, so that many interleavings of "a waiter goes
  // to sleep" and "the holder unlocks" are tried; a lost wake-up leaves a thread asleep forever,
  // which `runOnThreads` reports as not finished.
  @Test func sleepersAllWakeWhenTheHolderLetsGo() async {
    let waiters = 4
    let rounds = 100
    let lock = Lock()
    let counter = Unguarded()
    for round in 0..<rounds {
      let arrived = Watched(0)
      let held = Signal()
      let finished = await runOnThreads(waiters + 1) { index in
        if index == 0 {
          lock.lock()
          held.fire()
          // Every waiter is on its way into `lock()`.
          _ = arrived.waitBlocking { $0 == waiters }
          // Keep holding while the waiters exhaust their spinning. Yielding (not sleeping)
          // hands the cores to them; it decides nothing, only makes the slow path likely.
          for _ in 0..<(round % 2 == 0 ? 200 : 2) { sched_yield() }
          counter.increment()
          lock.unlock()
        } else {
          _ = held.waitBlocking()
          arrived.update { $0 += 1 }
          lock.lock()
          counter.increment()
          // Sometimes hold on a little too, so that the next waiter sleeps again.
          if index % 2 == 0 { sched_yield() }
          lock.unlock()
        }
      }
      #expect(finished, "round \(round): a thread never got the lock")
      guard finished else { return }
    }
    #expect(lock.withLock { counter.value } == rounds * (waiters + 1))
  }

  // Short critical sections with many threads, a few of them holding on: every thread finishes
  // every acquisition, and the count is exact.
  @Test func contendedLockAndUnlockWithSleepersFinish() async {
    let threads = 6
    let acquisitions = 5_000
    let lock = Lock()
    let counter = Unguarded()
    let finished = await runOnThreads(threads) { index in
      for step in 0..<acquisitions {
        lock.lock()
        counter.increment()
        // Every so often a holder yields its core while holding: the others go to sleep.
        if (step + index) % 64 == 0 { sched_yield() }
        lock.unlock()
      }
    }
    #expect(finished)
    #expect(lock.withLock { counter.value } == threads * acquisitions)
  }

  // Progress: each of N threads completes its quota while other threads hammer the lock for as
  // long as any quota is unfinished. A starved thread never completes, so the hammers never
  // stop and the run does not finish. Completion is asserted, never timing.
  @Test func noThreadStarvesWhileOthersHammer() async {
    let workers = 3
    let hammers = 3
    let quota = 2_000
    let lock = Lock()
    let counter = Unguarded()
    let completed = Atomic<Int>(0)
    let hammered = Atomic<Int>(0)
    let finished = await runOnThreads(workers + hammers) { index in
      if index < workers {
        for _ in 0..<quota {
          lock.withLock { counter.increment() }
        }
        completed.add(1, ordering: .releasing)
      } else {
        while completed.load(ordering: .acquiring) < workers {
          lock.withLock { counter.increment() }
          hammered.add(1, ordering: .relaxed)
        }
      }
    }
    #expect(finished)
    #expect(completed.load(ordering: .acquiring) == workers)
    let hammeredTotal = hammered.load(ordering: .relaxed)
    #expect(lock.withLock { counter.value } == workers * quota + hammeredTotal)
  }

  // `withLock` rethrows the body's typed error and gives the lock up on the way out: another
  // thread can take it afterwards.
  @Test func withLockRethrowsTypedErrorsAndReleases() async {
    let lock = Lock()
    do throws(Failure) {
      try lock.withLock { () throws(Failure) in throw Failure.inside(1) }
      Issue.record("withLock did not throw")
    } catch {
      // `error` is statically a `Failure`: the typed throw went through untouched.
      #expect(error == .inside(1))
    }
    let released = await runOnThreads(1, timeout: .seconds(30)) { _ in
      lock.lock()
      lock.unlock()
    }
    #expect(released, "the lock was still held after withLock threw")

    let value = LockedValue(10)
    do throws(Failure) {
      try value.withLock { (stored: inout Int) throws(Failure) in
        stored += 1
        throw Failure.inside(stored)
      }
      Issue.record("withLock did not throw")
    } catch {
      #expect(error == .inside(11))
    }
    let readable = await runOnThreads(1, timeout: .seconds(30)) { _ in
      _ = value.withLock { $0 }
    }
    #expect(readable, "the value's lock was still held after withLock threw")
    // The value is changed in place: what the body did before throwing stays.
    #expect(value.withLock { $0 } == 11)
  }

  // A body that cannot throw needs no `try`, and its result comes back.
  @Test func withLockReturnsTheBodysResult() {
    let lock = Lock()
    let result: String = lock.withLock { "inside" }
    #expect(result == "inside")
  }

  // What goes into a `LockedValue` comes out, through each way in.
  @Test func lockedValueRoundTrips() {
    struct Record: Equatable, Sendable {
      var name: String
      var items: [Int]
    }
    let value = LockedValue(Record(name: "a", items: [1]))
    #expect(value.withLock { $0 } == Record(name: "a", items: [1]))

    let returned = value.withLock { record -> Int in
      record.name = "b"
      record.items.append(2)
      return record.items.count
    }
    #expect(returned == 2)
    #expect(value.withLock { $0 } == Record(name: "b", items: [1, 2]))

    value.lock()
    value.unsafeValue.pointee.items.append(3)
    let read = value.unsafeValue.pointee
    value.unlock()
    #expect(read == Record(name: "b", items: [1, 2, 3]))
    #expect(value.withLock { $0.items } == [1, 2, 3])

    let optional = LockedValue<String?>(nil)
    optional.withLock { $0 = "set" }
    #expect(optional.withLock { $0 } == "set")
    #expect(optional.withLock { stored in stored.take() } == "set")
    #expect(optional.withLock { $0 } == nil)
  }

  // A `LockedValue` releases its value when it goes away.
  @Test func lockedValueReleasesItsValue() {
    final class Token: Sendable {}
    weak var weakToken: Token?
    do {
      let token = Token()
      weakToken = token
      let value = LockedValue<Token?>(token)
      #expect(value.withLock { $0 } === token)
    }
    #expect(weakToken == nil)
  }
}
