import CascadeStreams
import Synchronization

extension StoreEngine {
  // MARK: - Lifecycle

  /// Stops accepting inputs, ends or awaits the commands, drains the queue and closes.
  func shutdown(cancellingCommands: Bool) async {
    if cancellingCommands {
      let (stops, tasks) = storage.withLock { shared in
        shared.stopAccepting()
        return (shared.effects.cancelAll(), shared.effects.tasks)
      }
      for stop in stops { stop() }
      for task in tasks { await task.value }
    } else {
      while true {
        let tasks = storage.withLock { $0.effects.tasks }
        if tasks.isEmpty { break }
        for task in tasks { await task.value }
      }
      storage.withLock { $0.stopAccepting() }
    }
    await waitUntilIdle()
    close()
  }

  /// Waits until no one is processing and the queue is empty.
  func waitUntilIdle() async {
    if processingThread.load(ordering: .relaxed) == currentThreadIdentity() { return }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let idle = storage.withLock { shared -> Bool in
        if !shared.processing && shared.queue.isEmpty && shared.commandQueue.isEmpty {
          return true
        }
        shared.idleWaiters.append(continuation)
        return false
      }
      if idle { continuation.resume() }
    }
  }

  /// Ends everything at once: no more input, no more delivery, commands cancelled.
  func close() {
    let closing = storage.withLock { $0.close() }
    timers.dispose()
    for box in closing.subscriptions where box.cancel() && closing.tellNow { box.storeDidClose() }
    for stop in closing.stops { stop() }
    for _ in 0..<closing.effects { Resources.decrement(charging: account) }
    for _ in 0..<closing.parked { Resources.decrement(charging: account) }
    for dropped in closing.dropped { dropped() }
    for waiter in closing.waiters { waiter.resume() }
  }

  var isClosed: Bool { storage.withLock { $0.closed } }
}

extension LockedValue {
  /// Runs `body` under the lock, unless the processing thread is inside the reducer and already
  /// holds it, in which case it runs without taking it again.
  func withLockIfNotReducing<T>(_ reducing: borrowing Atomic<Bool>, _ body: (inout Value) -> T) -> T
  {
    if reducing.load(ordering: .relaxed) { return body(&unsafeValue.pointee) }
    return withLock(body)
  }
}
