/// Which steps' states are kept within a budget of bytes, the oldest let go first: the live
/// endpoint's (``LiveInspector/stateBudget``) and `cascade-inspect --live`'s.
///
/// ```swift
/// var budget = StateBudget<Data>(bytes: 256 << 20)
/// for evicted in budget.keep(index, bytes: state.count, stateless) {
///   details[evicted.index] = evicted.value  // the step without its state
/// }
/// ```
public struct StateBudget<Value: Sendable>: Sendable {
  /// The most bytes of states kept; the latest state is kept whatever its size.
  public let bytes: Int
  private var kept: [(index: Int, bytes: Int, value: Value)] = []
  /// The first of `kept` still kept (those before are let go, removed now and then).
  private var first = 0
  private var total = 0

  /// A budget of `bytes`.
  public init(bytes: Int) {
    self.bytes = bytes
  }

  /// Keeps step `index`'s state of `size` bytes, with `value` (what the step falls back to);
  /// returns the steps whose states are to be let go now, oldest first, with their values.
  public mutating func keep(
    _ index: Int,
    bytes size: Int,
    _ value: Value
  ) -> [(index: Int, value: Value)] {
    kept.append((index, size, value))
    total += size
    var evicted: [(index: Int, value: Value)] = []
    while total > bytes, first < kept.count - 1 {
      let oldest = kept[first]
      evicted.append((oldest.index, oldest.value))
      total -= oldest.bytes
      first += 1
    }
    compact()
    return evicted
  }

  /// Forgets the states of the steps before `index`, let go with their steps: their bytes no
  /// longer count.
  public mutating func forget(before index: Int) {
    while first < kept.count, kept[first].index < index {
      total -= kept[first].bytes
      first += 1
    }
    compact()
  }

  /// Removes the entries let go once they are most of ``kept`` (and more than 1,024): removed
  /// one by one, each would move every entry after it.
  private mutating func compact() {
    if first > 1_024, first * 2 > kept.count {
      kept.removeFirst(first)
      first = 0
    }
  }
}
