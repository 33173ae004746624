/// An unbounded first-in first-out queue: a ring buffer, amortised O(1) at both ends.
///
/// Used by the serializing entry points (subjects, `create`), the buffering operators and a
/// store's input queue, for what is submitted while another thread is delivering or processing.
/// It is unbounded by design: a sender never blocks and never loses an element; the delivering
/// thread drains the queue before it returns.
///
/// **Release.** An element is released as soon as it leaves the queue: ``removeFirst()`` clears
/// its slot, so a queue that never empties (a replay buffer, a busy input queue) keeps only what
/// it holds alive. A queue that held more than ``retainedCapacity`` elements gives its storage
/// back when it empties, so memory returns to where it was after a burst.
@usableFromInline
package struct FIFO<Element> {
  /// The slots, as many as 0 or a power of two.
  ///
  /// The queue's elements are the `count` slots from `head`, wrapping around.
  @usableFromInline var slots: ContiguousArray<Element?> = []
  @usableFromInline var head = 0
  @usableFromInline var storedCount = 0

  /// The largest capacity kept once the queue empties.
  @usableFromInline static var retainedCapacity: Int { 256 }

  @inlinable package init() {}

  @inlinable
  package var isEmpty: Bool { storedCount == 0 }
  @inlinable
  package var count: Int { storedCount }

  @inlinable
  package mutating func append(_ element: Element) {
    if storedCount == slots.count { grow() }
    slots[(head &+ storedCount) & (slots.count &- 1)] = element
    storedCount &+= 1
  }

  /// Doubles the capacity (at least 8), moving the elements to the front in order.
  @usableFromInline
  mutating func grow() {
    let capacity = Swift.max(8, slots.count * 2)
    var grown = ContiguousArray<Element?>()
    grown.reserveCapacity(capacity)
    for offset in 0..<storedCount {
      grown.append(slots[(head + offset) & (slots.count - 1)].take())
    }
    // One `nil` at a time: `append(contentsOf: repeatElement(nil, count:))`, in this unspecialized
    // code, allocated for each slot of an element too large for an existential's inline buffer
    // (a store's queued work items: 8 allocations per store's first growth, the allocation gate).
    for _ in storedCount..<capacity { grown.append(nil) }
    slots = grown
    head = 0
  }

  @inlinable
  package mutating func popFirst() -> Element? {
    guard storedCount > 0 else { return nil }
    return removeFirst()
  }

  /// Removes and returns the first element, releasing its slot; the queue must not be empty.
  ///
  /// Callers on hot paths check ``isEmpty`` and call this, so that no `Optional` of the element
  /// is made and destroyed when the queue is empty.
  @inlinable
  package mutating func removeFirst() -> Element {
    precondition(storedCount > 0, "removeFirst() on an empty FIFO")
    let element = slots[head].take()
    storedCount &-= 1
    if storedCount == 0 {
      head = 0
      if slots.count > Self.retainedCapacity { slots = [] }
    } else {
      head = (head &+ 1) & (slots.count &- 1)
    }
    return element!
  }

  /// The element last appended, if any.
  @inlinable
  package var last: Element? {
    storedCount == 0 ? nil : slots[(head &+ storedCount &- 1) & (slots.count &- 1)]
  }

  /// How many elements the storage has room for (its capacity is given back when the queue
  /// empties after holding more than ``retainedCapacity``).
  package var capacity: Int { slots.count }

  /// The elements, first to last.
  @inlinable
  package var elements: [Element] {
    (0..<storedCount).map { slots[(head &+ $0) & (slots.count &- 1)]! }
  }

  @inlinable
  package mutating func removeAll() {
    slots = []
    head = 0
    storedCount = 0
  }
}

extension FIFO: Sendable where Element: Sendable {}
