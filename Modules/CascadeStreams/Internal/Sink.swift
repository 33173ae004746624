/// The base of the library's operator subscriptions.
///
/// A sink forwards events downstream until it is disposed or has forwarded a terminal event; after
/// either, it forwards nothing and disposes its upstream subscriptions exactly once. Each live sink
/// counts one in ``Resources/total``. Its ``lifetime`` ends at the same moment, so synchronous
/// producers upstream stop early.
///
/// Subclasses add their own state; any state shared between threads sits behind `lock`.
package class Sink<Element: Sendable, Failure: Error>: Cancelable, @unchecked Sendable {
  // Safety: `downstream`, `upstream`, `lock` and `lifetime` are immutable references to Sendable
  // values; subclasses guard their own mutable state with `lock` or rely on the stream grammar
  // (events from one upstream never overlap), as each documents.
  package let downstream: AnyObserver<Element, Failure>
  package let upstream = CompositeDisposable()
  package let lock = Lock()
  package let lifetime = Lifetime()
  // Guarded by `lock`: the outbox of `enqueueEvent(_:)` and whether a thread drains it.
  private var pending = FIFO<StreamEvent<Element, Failure>>()
  private var delivering = false
  private var stopped = false
  private let resource: Resources.Token

  package init(downstream: AnyObserver<Element, Failure>) {
    self.downstream = downstream
    resource = Resources.increment()
  }

  /// Whether the sink was disposed or has terminated.
  @inline(__always)
  package final var isDisposed: Bool { lifetime.hasEnded }

  /// An observer that delivers into `handler` and carries this sink's lifetime.
  package final func observer<E: Sendable, F: Error>(
    _ handler: @escaping @Sendable (StreamEvent<E, F>) -> Void
  ) -> AnyObserver<E, F> {
    AnyObserver(handler, lifetime: lifetime)
  }

  /// Forwards `event` downstream unless disposed; a terminal event disposes the sink afterwards.
  @inline(__always)
  package final func forward(_ event: StreamEvent<Element, Failure>) {
    guard !isDisposed else { return }
    if event.isTerminal {
      forwardTerminal(event)
    } else {
      downstream.on(event)
      // A downstream that ended during the callout (a `take` that has its values, a subscriber
      // that disposed) ends this sink too, so a synchronous producer upstream sees the end.
      if downstream.lifetime?.hasEnded == true { dispose() }
    }
  }

  /// Forwards a terminal event, claiming the sink first so that no other thread forwards after it.
  package final func forwardTerminal(_ event: StreamEvent<Element, Failure>) {
    guard lifetime.end() else { return }
    downstream.on(event)
    release()
  }

  /// Forwards `event` with the grammar enforced against concurrent and reentrant callers.
  ///
  /// Operators with several sources (merge, timers) and the observer of
  /// ``Observable/create(_:)`` deliver through here. Nothing passes after the first terminal
  /// event. A call made while another event is being delivered is appended to an unbounded FIFO
  /// and delivered, in order, by the thread already delivering once its callout returns; the
  /// caller does not wait, so no lock is ever held across a callout and senders cannot deadlock.
  package final func serialize(_ event: StreamEvent<Element, Failure>) {
    lock.withLock { enqueueEvent(event) }
    drainEvents()
  }

  /// Appends `event` to the outbox that ``drainEvents()`` delivers; nothing is accepted after a
  /// terminal event or disposal.
  ///
  /// Operators that decide what to emit from state guarded by `lock` (time operators, whose
  /// timers fire on other threads) call this in the same critical section as the decision, so
  /// deliveries keep the order of the decisions.
  ///
  /// - Precondition: `lock` is held.
  package final func enqueueEvent(_ event: StreamEvent<Element, Failure>) {
    guard !stopped, !isDisposed else { return }
    if event.isTerminal { stopped = true }
    pending.append(event)
  }

  /// Delivers the outbox in order, unless another thread is already delivering it (which then
  /// delivers these events too, after its current callout returns).
  ///
  /// Call without holding `lock`.
  package final func drainEvents() {
    lock.lock()
    if delivering {
      lock.unlock()
      return
    }
    delivering = true
    while let event = pending.popFirst() {
      lock.unlock()
      forward(event)
      lock.lock()
    }
    delivering = false
    lock.unlock()
  }

  /// Stops forwarding and disposes the upstream subscriptions.
  ///
  /// Idempotent.
  package func dispose() {
    guard lifetime.end() else { return }
    release()
  }

  private func release() {
    lock.withLock {
      stopped = true
      pending.removeAll()
    }
    upstream.dispose()
    didDispose()
    Resources.decrement(resource)
  }

  /// Called once when the sink ends, after its upstream is disposed.
  ///
  /// Subclasses release their own resources here (timers, inner subscriptions held outside
  /// `upstream`).
  package func didDispose() {}
}
