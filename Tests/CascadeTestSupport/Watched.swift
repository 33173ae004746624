import CascadeStreams
import Dispatch

/// A value that tests change from any thread and wait on until it satisfies a condition.
///
/// The wait ends as soon as a change makes the condition hold: it never polls. Its timeout is a
/// safety net that only turns a hang into a failure; it is generous so that a loaded machine
/// never fails a correct test.
///
/// ```swift
/// let delivered = Watched(0)
/// store.subscribe(on: .queue(queue)) { _ in delivered.update { $0 += 1 } }
/// #expect(await delivered.wait { $0 == 3 })
/// ```
public final class Watched<Value: Sendable>: Sendable {
  private struct Waiter {
    let condition: @Sendable (Value) -> Bool
    let wake: @Sendable (Bool) -> Void
  }

  private struct Contents {
    var value: Value
    var waiters: [Int: Waiter] = [:]
    var nextID = 0
  }

  private let contents: LockedValue<Contents>

  /// Creates the value.
  public init(_ value: Value) {
    contents = LockedValue(Contents(value: value))
  }

  /// The current value.
  public var value: Value { contents.withLock { $0.value } }

  /// Changes the value under the lock and wakes the waiters whose condition now holds.
  @discardableResult
  public func update<T>(_ body: (inout Value) -> T) -> T {
    let (result, woken) = contents.withLock { contents -> (T, [Waiter]) in
      let result = body(&contents.value)
      var woken: [Waiter] = []
      for (id, waiter) in contents.waiters where waiter.condition(contents.value) {
        woken.append(waiter)
        contents.waiters[id] = nil
      }
      return (result, woken)
    }
    for waiter in woken { waiter.wake(true) }
    return result
  }

  /// Replaces the value and wakes the waiters whose condition now holds.
  public func set(_ value: Value) {
    update { $0 = value }
  }

  /// Waits until `condition` holds for the value; `false` if it did not within `timeout`.
  ///
  /// `condition` runs under the value's lock: it must only look at the value.
  public func wait(
    timeout: Duration = .seconds(60),
    until condition: @escaping @Sendable (Value) -> Bool
  ) async -> Bool {
    await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      let once = Once()
      let timer = LockedValue<Task<Void, Never>?>(nil)
      let wake: @Sendable (Bool) -> Void = { held in
        guard once.claim() else { return }
        timer.withLock { $0 }?.cancel()
        continuation.resume(returning: held)
      }
      guard let id = register(condition, wake) else { return }
      let task = Task { [self] in
        try? await Task.sleep(for: timeout)
        guard !Task.isCancelled else { return }
        if contents.withLock({ $0.waiters.removeValue(forKey: id) }) != nil { wake(false) }
      }
      timer.withLock { $0 = task }
      // Woken before the timer was stored: it has nothing left to do.
      if once.isClaimed { task.cancel() }
    }
  }

  /// Blocks the calling thread until `condition` holds; `false` if it did not within `timeout`.
  ///
  /// For tests that run on threads of their own, never on the cooperative pool.
  public func waitBlocking(
    timeout: Duration = .seconds(60),
    until condition: @escaping @Sendable (Value) -> Bool
  ) -> Bool {
    let semaphore = DispatchSemaphore(value: 0)
    let held = LockedValue(false)
    guard
      let id = register(
        condition,
        { value in
          held.withLock { $0 = value }
          semaphore.signal()
        }
      )
    else { return true }
    if semaphore.wait(timeout: .now() + timeout.dispatchInterval) == .success {
      return held.withLock { $0 }
    }
    return contents.withLock { $0.waiters.removeValue(forKey: id) } == nil
  }

  /// Registers a waiter, or wakes it at once (returning `nil`) if the condition holds already.
  private func register(
    _ condition: @escaping @Sendable (Value) -> Bool,
    _ wake: @escaping @Sendable (Bool) -> Void
  ) -> Int? {
    let id = contents.withLock { contents -> Int? in
      if condition(contents.value) { return nil }
      let id = contents.nextID
      contents.nextID += 1
      contents.waiters[id] = Waiter(condition: condition, wake: wake)
      return id
    }
    if id == nil { wake(true) }
    return id
  }
}

/// A one-shot event a test waits for: something the code under test signals once.
///
/// ```swift
/// let cancelled = Signal()
/// let task = Task { await withTaskCancellationHandler { … } onCancel: { cancelled.fire() } }
/// task.cancel()
/// #expect(await cancelled.wait())
/// ```
public final class Signal: Sendable {
  private let fired = Watched(false)

  /// Creates a signal that has not fired.
  public init() {}

  /// Fires the signal; later calls do nothing.
  public func fire() {
    fired.set(true)
  }

  /// Whether it has fired.
  public var hasFired: Bool { fired.value }

  /// Waits until the signal fires; `false` if it did not within `timeout` (a safety net).
  public func wait(timeout: Duration = .seconds(60)) async -> Bool {
    await fired.wait(timeout: timeout) { $0 }
  }

  /// Blocks the calling thread until the signal fires; `false` if it did not within `timeout`.
  public func waitBlocking(timeout: Duration = .seconds(60)) -> Bool {
    fired.waitBlocking(timeout: timeout) { $0 }
  }
}

/// Lets exactly one caller through.
private final class Once: Sendable {
  private let claimed = LockedValue(false)

  var isClaimed: Bool { claimed.withLock { $0 } }

  func claim() -> Bool {
    claimed.withLock { claimed in
      defer { claimed = true }
      return !claimed
    }
  }
}

extension Duration {
  /// The duration as a dispatch interval, saturating instead of overflowing.
  var dispatchInterval: DispatchTimeInterval {
    let (seconds, attoseconds) = components
    guard seconds < Int64.max / 1_000_000_000 - 1 else { return .never }
    return .nanoseconds(Int(max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)))
  }
}
