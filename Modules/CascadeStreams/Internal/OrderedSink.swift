/// A sink that handles work items one at a time, in the order they were enqueued, outside its lock.
///
/// `Sink.serialize(_:)` orders events by when they reach it; operators such as `combineLatest`
/// and `flatMapLatest` need the order in which their *state* changed instead (the snapshot taken
/// with a value, the generation an inner event belongs to), and must run user code (a result
/// selector) on the delivering thread, never under the lock. A subclass updates its state and
/// calls ``enqueue(_:)`` in one critical section of `lock`; after unlocking, it calls ``drain()``
/// if `enqueue` asked it to. The draining thread calls ``handle(_:)`` for each item with the lock
/// released, so items from concurrent or reentrant senders are handled in enqueue order and never
/// overlap, and no sender waits for another's callout.
class OrderedSink<Element: Sendable, Failure: Error, Item>: Sink<Element, Failure>,
  @unchecked Sendable
{
  // Safety: `items` and `draining` are read and written only with `lock` held.
  private var items = FIFO<Item>()
  private var draining = false

  /// Appends `item` to the queue.
  ///
  /// Call with `lock` held. When it returns `true`, the caller has become the drainer and must
  /// call ``drain()`` once it has released the lock.
  final func enqueue(_ item: Item) -> Bool {
    items.append(item)
    if draining { return false }
    draining = true
    return true
  }

  /// Handles the queued items in order until the queue is empty.
  ///
  /// Call without `lock` held. Stops, dropping what is left, once the sink is disposed.
  final func drain() {
    while true {
      lock.lock()
      if isDisposed {
        items.removeAll()
        draining = false
        lock.unlock()
        return
      }
      guard let item = items.popFirst() else {
        draining = false
        lock.unlock()
        return
      }
      lock.unlock()
      handle(item)
    }
  }

  /// Handles one item, without `lock` held; usually ends in `forward(_:)`.
  func handle(_ item: Item) {}
}
