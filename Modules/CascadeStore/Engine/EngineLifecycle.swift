import CascadeStreams
import Dispatch

extension StoreEngine {
  // MARK: - Lifecycle: shutting down, closing, waiting for rest

  /// Stops accepting inputs, ends or awaits the commands, drains the queue and closes.
  func shutdown(cancellingCommands: Bool) async {
    if cancellingCommands {
      let (stops, tasks) = storage.withLock { machine in
        machine.stopAccepting()
        return (machine.effects.cancelAll(), machine.effects.tasks)
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
    if isProcessingOnCurrentThread { return }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      if !storage.withLock({ $0.awaitIdle(continuation) }) { continuation.resume() }
    }
  }

  /// Waits until no effect is in flight (or the store closed).
  func waitUntilNoWork() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      if !storage.withLock({ $0.awaitNoEffects(continuation) }) { continuation.resume() }
    }
  }

  /// Waits until the store is quiescent: no work in flight that may still send inputs, and
  /// every input sent so far processed.
  func finish() async {
    // The processing thread cannot wait for its own work to end.
    if isProcessingOnCurrentThread { return }
    while true {
      await waitUntilNoWork()
      await waitUntilIdle()
      if storage.withLock({ $0.isQuiescent }) { return }
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
    let closing = storage.withLock { machine in
      machine.close(by: me) {
        let done = DispatchSemaphore(value: 0)
        holderDone = done
        return { done.signal() }
      }
    }
    timers.dispose()
    for box in closing.subscriptions where box.cancel() && closing.tellNow { box.storeDidClose() }
    for stop in closing.stops { stop() }
    for _ in 0..<closing.effects { Resources.decrement(charging: account) }
    for _ in 0..<closing.parked { Resources.decrement(charging: account) }
    for dropped in closing.dropped { dropped() }
    for waiter in closing.waiters { waiter.resume() }
    if closing.awaitsHolder { holderDone?.wait() }
  }

  var isClosed: Bool { storage.withLock { $0.closed } }
}
