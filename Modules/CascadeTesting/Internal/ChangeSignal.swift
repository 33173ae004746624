import CascadeStreams

/// Wakes the tasks waiting for something to change, or for a deadline to pass, whichever comes
/// first.
///
/// A test store waits on one of these for the next action its store reduces or the next command
/// that ends, instead of polling: the wait ends as soon as the work does, and the deadline only
/// turns a hang into a failure.
final class ChangeSignal: Sendable {
  private struct Waiter {
    let continuation: CheckedContinuation<Void, Never>
    let timer: Task<Void, Never>?
  }

  private struct Contents {
    var generation: UInt64 = 0
    var waiters: [Int: Waiter] = [:]
    var nextID = 0
  }

  private let contents = LockedValue(Contents())

  /// The number of changes signalled so far; pass it to ``wait(after:until:)``.
  var generation: UInt64 { contents.withLock { $0.generation } }

  /// Signals a change: every waiter wakes.
  func signal() {
    let waiters = contents.withLock { contents in
      contents.generation &+= 1
      defer { contents.waiters = [:] }
      return Array(contents.waiters.values)
    }
    for waiter in waiters {
      waiter.timer?.cancel()
      waiter.continuation.resume()
    }
  }

  /// Waits until a change after `generation` is signalled, or `deadline` passes.
  ///
  /// Returns at once if one was signalled since `generation` was read.
  func wait(after generation: UInt64, until deadline: ContinuousClock.Instant) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let id = contents.withLock { contents -> Int? in
        guard contents.generation == generation else { return nil }
        let id = contents.nextID
        contents.nextID += 1
        contents.waiters[id] = Waiter(continuation: continuation, timer: nil)
        return id
      }
      guard let id else {
        continuation.resume()
        return
      }
      let timer = Task { [self] in
        try? await Task.sleep(until: deadline, clock: .continuous)
        expire(id)
      }
      let waiting = contents.withLock { contents -> Bool in
        guard let waiter = contents.waiters[id] else { return false }
        contents.waiters[id] = Waiter(continuation: waiter.continuation, timer: timer)
        return true
      }
      // Already woken: the timer has nothing left to do.
      if !waiting { timer.cancel() }
    }
  }

  private func expire(_ id: Int) {
    let waiter = contents.withLock { $0.waiters.removeValue(forKey: id) }
    waiter?.continuation.resume()
  }
}
