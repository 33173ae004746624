import CascadeStreams
import Dispatch
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
  ///
  /// When it returns, no subscriber of the store is being called and none will be. If another
  /// thread is processing an input (its reduction done, its state being delivered), this waits
  /// until that thread has finished it: so a subscriber on that thread must not wait for the
  /// thread that closes the store (by releasing it or calling `shutdown`), or both wait forever.
  /// Closing from the processing thread itself (a subscriber that releases its store) does not
  /// wait.
  func close() {
    let me = currentThreadIdentity()
    var holderDone: DispatchSemaphore?
    let closing = storage.withLock { shared in
      let closing = shared.close()
      let holder = processingThread.load(ordering: .relaxed)
      // A holder that has not started yet (a queued job) finds the store closed and does nothing.
      if shared.processing, holder != 0, holder != me {
        let done = DispatchSemaphore(value: 0)
        shared.awaitHolder { done.signal() }
        holderDone = done
      }
      return closing
    }
    timers.dispose()
    for box in closing.subscriptions where box.cancel() && closing.tellNow { box.storeDidClose() }
    for stop in closing.stops { stop() }
    for _ in 0..<closing.effects { Resources.decrement(charging: account) }
    for _ in 0..<closing.parked { Resources.decrement(charging: account) }
    for dropped in closing.dropped { dropped() }
    for waiter in closing.waiters { waiter.resume() }
    holderDone?.wait()
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
