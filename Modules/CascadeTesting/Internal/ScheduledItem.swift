import CascadeStreams

/// One piece of work waiting on a ``TestScheduler``.
///
/// Items are ordered by due time, then by the order they were scheduled in. Disposing an item
/// cancels it: its action is released at once and it never runs.
final class ScheduledItem: Disposable, @unchecked Sendable {
  // Safety: `action` is only read or written with the owning scheduler's lock held; the other
  // stored properties are immutable.
  let time: SchedulerInstant
  let sequence: Int
  /// What the item counts as in `Resources` while it waits, if it counts.
  let resource: Resources.Token?
  /// Whether running the item resumes a task (a ``TestScheduler/sleep(until:tolerance:)``),
  /// which an `async` advance lets run before it goes on.
  let wakesTask: Bool
  /// The work, or `nil` once the item has run or been cancelled.
  ///
  /// Guarded by the scheduler's lock.
  var action: (@Sendable () -> Void)?
  private weak let scheduler: TestScheduler?

  init(
    time: SchedulerInstant,
    sequence: Int,
    resource: Resources.Token?,
    wakesTask: Bool = false,
    scheduler: TestScheduler,
    action: @escaping @Sendable () -> Void
  ) {
    self.time = time
    self.sequence = sequence
    self.resource = resource
    self.wakesTask = wakesTask
    self.scheduler = scheduler
    self.action = action
  }

  /// Whether `self` runs before `other`.
  @inline(__always)
  func precedes(_ other: ScheduledItem) -> Bool {
    time != other.time ? time < other.time : sequence < other.sequence
  }

  /// Cancels the item if it has not started.
  func dispose() {
    scheduler?.cancel(self)
  }
}

/// A binary min-heap of scheduled items, ordered by ``ScheduledItem/precedes(_:)``.
///
/// Cancelled items stay in the heap (with their action released) until they reach the top or the
/// heap is compacted, so cancelling is O(1).
struct ScheduledItemHeap {
  private var storage: [ScheduledItem] = []
  /// The number of items in the heap that were cancelled.
  private var cancelled = 0

  /// The number of items still waiting to run.
  var liveCount: Int { storage.count - cancelled }

  mutating func insert(_ item: ScheduledItem) {
    storage.append(item)
    siftUp(storage.count - 1)
  }

  /// Records that an item in the heap was cancelled, compacting the heap when cancelled items
  /// outnumber live ones.
  mutating func noteCancelled() {
    cancelled += 1
    if cancelled > 1024 && cancelled > storage.count / 2 {
      storage.removeAll { $0.action == nil }
      cancelled = 0
      for index in stride(from: storage.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }
  }

  /// The earliest live item, without removing it; drops cancelled items on the way.
  mutating func peek() -> ScheduledItem? {
    while let first = storage.first, first.action == nil {
      removeFirst()
      cancelled -= 1
    }
    return storage.first
  }

  /// Removes the earliest item; call after ``peek()`` returned it.
  mutating func removeFirst() {
    let last = storage.removeLast()
    if !storage.isEmpty {
      storage[0] = last
      siftDown(0)
    }
  }

  private mutating func siftUp(_ start: Int) {
    var child = start
    while child > 0 {
      let parent = (child - 1) / 2
      guard storage[child].precedes(storage[parent]) else { return }
      storage.swapAt(child, parent)
      child = parent
    }
  }

  private mutating func siftDown(_ start: Int) {
    var parent = start
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var first = parent
      if left < storage.count && storage[left].precedes(storage[first]) { first = left }
      if right < storage.count && storage[right].precedes(storage[first]) { first = right }
      if first == parent { return }
      storage.swapAt(parent, first)
      parent = first
    }
  }
}
