/// The base of the time operators' subscriptions: a sink whose decisions and deliveries stay in
/// the same order.
///
/// A time operator is driven by its upstream and by timers that may fire on other threads. It
/// decides what to emit while holding `lock` (take the pending value, mark the timer spent) and
/// appends the result to an outbox in the same critical section, with ``enqueue(_:)``; after
/// releasing the lock it calls ``drain()``, which delivers the outbox in order. A thread that finds
/// another one draining leaves its events to it and returns at once, so no lock is held during a
/// callout, deliveries never overlap, and reentrant events are delivered after the callout that
/// caused them returns.
class TimedSink<Element: Sendable, Failure: Error>: Sink<Element, Failure>, @unchecked Sendable {
  // Safety: `outbox`, `draining` and `finished` are guarded by `lock`.
  private var outbox = FIFO<Event<Element, Failure>>()
  private var draining = false
  private var finished = false

  /// Appends `event` to the outbox; nothing is accepted after a terminal event.
  ///
  /// - Precondition: `lock` is held.
  final func enqueue(_ event: Event<Element, Failure>) {
    guard !finished else { return }
    if event.isTerminal { finished = true }
    outbox.append(event)
  }

  /// Appends `event` to the outbox and delivers it.
  ///
  /// Call without holding `lock`.
  final func emit(_ event: Event<Element, Failure>) {
    lock.withLock { enqueue(event) }
    drain()
  }

  /// Delivers the outbox in order unless another thread is delivering it.
  ///
  /// Call without holding `lock`.
  final func drain() {
    lock.lock()
    if draining {
      lock.unlock()
      return
    }
    draining = true
    while let event = outbox.popFirst() {
      lock.unlock()
      forward(event)
      lock.lock()
    }
    draining = false
    lock.unlock()
  }

  override func disposed_() {
    lock.withLock {
      finished = true
      outbox.removeAll()
    }
  }
}
