/// An unbounded first-in first-out queue over an array, amortised O(1) at both ends.
///
/// Used by the serializing entry points (subjects, `create`) for events submitted while another
/// thread is delivering. It is unbounded by design: a sender never blocks and never loses an
/// event; the delivering thread drains the queue before it returns.
@usableFromInline
package struct FIFO<Element> {
  @usableFromInline var storage: [Element] = []
  @usableFromInline var head = 0

  @inlinable package init() {}

  @inlinable
  package var isEmpty: Bool { head == storage.count }
  @inlinable
  package var count: Int { storage.count - head }

  @inlinable
  package mutating func append(_ element: Element) {
    storage.append(element)
  }

  @inlinable
  package mutating func popFirst() -> Element? {
    guard head < storage.count else {
      return nil
    }
    return removeFirst()
  }

  /// Removes and returns the first element; the queue must not be empty.
  ///
  /// Callers on hot paths check ``isEmpty`` and call this, so that no `Optional` of the element
  /// is made and destroyed when the queue is empty.
  @inlinable
  package mutating func removeFirst() -> Element {
    precondition(head < storage.count, "removeFirst() on an empty FIFO")
    let element = storage[head]
    head += 1
    if head == storage.count {
      storage.removeAll(keepingCapacity: true)
      head = 0
    } else if head > 64 && head * 2 > storage.count {
      storage.removeFirst(head)
      head = 0
    }
    return element
  }

  @inlinable
  package mutating func removeAll() {
    storage.removeAll()
    head = 0
  }
}

extension FIFO: Sendable where Element: Sendable {}
