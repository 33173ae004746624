import Foundation

/// The machines an inspection computed after every multiple of its checkpoint interval, and
/// whether the background warming is still computing them.
///
/// A request for a step beyond the last checkpoint waits while the warming is on its way there,
/// rather than reducing the same lines beside it on another core.
final class CheckpointStore<Machine: Sendable>: @unchecked Sendable {
  // Safety: `machines`, `highest` and `isWarming` are only read and written while `condition`
  // is locked.
  private let condition = NSCondition()
  private let interval: Int
  private var machines: [Int: Machine]
  private var highest = 0
  private var isWarming = false

  /// Creates a store holding the machine before the first step.
  init(initial: Machine, interval: Int) {
    machines = [0: initial]
    self.interval = interval
  }

  /// A store holding this one's checkpoints at or before `limit` steps, not warming.
  func seeded(upTo limit: Int) -> CheckpointStore {
    condition.lock()
    defer { condition.unlock() }
    guard let initial = machines[0] else {
      preconditionFailure("the machine before the first step is always kept")
    }
    let store = CheckpointStore(initial: initial, interval: interval)
    for (steps, machine) in machines where steps <= limit {
      store.machines[steps] = machine
      store.highest = max(store.highest, steps)
    }
    return store
  }

  /// Marks the warming as started or finished; a finish wakes the requests waiting for it.
  func setWarming(_ warming: Bool) {
    condition.lock()
    defer { condition.unlock() }
    isWarming = warming
    condition.broadcast()
  }

  /// The last checkpoint at or before `count` steps, and its machine.
  ///
  /// - Parameters:
  ///   - count: The number of steps the caller wants the machine after.
  ///   - wait: Whether to wait, while the warming runs, until it has passed the last checkpoint
  ///     before `count` (the warming itself does not wait).
  /// - Returns: The checkpoint's number of steps, and the machine after them.
  func start(for count: Int, waitingForWarming wait: Bool) -> (steps: Int, machine: Machine) {
    condition.lock()
    defer { condition.unlock() }
    while wait, isWarming, highest + interval <= count { condition.wait() }
    var point = min(count, highest) / interval * interval
    while point > 0, machines[point] == nil { point -= interval }
    guard let machine = machines[point] ?? machines[0] else {
      preconditionFailure("the machine before the first step is always kept")
    }
    return (point, machine)
  }

  /// Keeps `machine`, the machine after `steps` steps (a multiple of the interval), and returns
  /// a later checkpoint at or before `count` if another thread has computed one.
  func publish(
    _ machine: Machine,
    after steps: Int,
    goingTo count: Int
  ) -> (
    steps: Int, machine: Machine
  )? {
    condition.lock()
    defer { condition.unlock() }
    if machines[steps] == nil {
      machines[steps] = machine
      if steps > highest {
        highest = steps
        condition.broadcast()
      }
    }
    guard highest > steps, highest <= count, let later = machines[highest] else { return nil }
    return (highest, later)
  }
}
