import CascadeStreams

/// The outcomes of a recorded session's effects (a save, a page request, a database write), for
/// a test generated from the recording: the app's stub of the effect asks for its outcome, and
/// gets it once the test releases the record that holds it, so outcomes arrive in the order and
/// at the steps recorded, with no file, network, database or clock.
///
/// ```swift
/// let effects = try RecordedEffects<GameChange>(json: [(record: 29, key: nil, #"{"saved":{"step":7}}"#)])
/// let game = StoreGame(file: GameFile(recorded: effects))
/// …
/// effects.release(29)  // the save's outcome, recorded at #29
/// await store.receive(…)
/// ```
///
/// An effect without a key gets the first outcome not yet given out, in the recording's order;
/// an effect with a key (a request's id) gets the outcome recorded with that key. An effect whose
/// outcome the recording does not hold (a request cancelled before it answered, as a refresh
/// cancels the page in flight) waits until it is cancelled, as it did when recorded; one still
/// waiting at the end of the test is work the `TestStore` reports as still running. Every wait
/// ends with `nil` when the effect's task is cancelled. What does not go as recorded (a release
/// of a record that holds no outcome, what a stub reports) is kept in ``problems``, which the
/// generated test expects to be empty.
public final class RecordedEffects<Outcome: Sendable>: Sendable {
  /// One outcome: the number of the record that holds it, the key of the effect that produced it
  /// (or `nil`), and the outcome.
  public typealias Recorded = (record: Int, key: Int?, outcome: Outcome)

  private struct Slot {
    var recorded: Recorded
    var claimed = false
    var released = false
    var waiter: (id: Int, continuation: CheckedContinuation<Outcome?, Never>)?
  }

  private struct Contents {
    var slots: [Slot]
    /// The effects waiting for an outcome the recording does not hold: until cancelled.
    var orphans: [Int: CheckedContinuation<Outcome?, Never>] = [:]
    var problems: [String] = []
    var nextWaiter = 0
  }

  private let contents: LockedValue<Contents>

  /// What an effect asking for its outcome finds.
  private enum Claim {
    case ready(Outcome)
    case pending(slot: Int, waiter: Int)
    /// The recording holds no outcome for it: it waits until cancelled.
    case orphan(waiter: Int)
  }

  /// The outcomes recorded, in the recording's order.
  public init(_ recorded: [Recorded]) {
    contents = LockedValue(Contents(slots: recorded.map { Slot(recorded: $0) }))
  }

  /// The outcomes recorded, in the recording's order, each as its JSON.
  ///
  /// - Throws: A `DecodingError` when an outcome is not an `Outcome`'s JSON.
  public convenience init(json recorded: [(record: Int, key: Int?, outcome: String)]) throws
  where Outcome: Decodable {
    self.init(
      try recorded.map { ($0.record, $0.key, try RecordedJSON<Outcome>.decode($0.outcome)) }
    )
  }

  /// No outcome at all: for a replay, which runs no effect.
  public static var none: RecordedEffects { RecordedEffects([]) }

  /// What did not go as recorded, one sentence each, in order.
  public var problems: [String] { contents.withLock { $0.problems } }

  /// Notes something that did not go as recorded, which a stub found (a page asked for that is
  /// not the recorded request's): it joins ``problems``.
  public func report(_ problem: String) {
    contents.withLock { $0.problems.append(problem) }
  }

  /// How many effects are waiting for their outcomes now.
  public var waitingEffects: Int {
    contents.withLock { contents in
      contents.slots.count { $0.waiter != nil } + contents.orphans.count
    }
  }

  /// Waits until the test releases the outcome of the effect with `key` (or of the next effect,
  /// without a key), and returns it; `nil` once the task is cancelled, and only then when the
  /// recording holds no outcome for it.
  public func outcome(forKey key: Int? = nil) async -> Outcome? {
    let claim = contents.withLock { contents -> Claim in
      defer { contents.nextWaiter += 1 }
      guard
        let index = contents.slots.firstIndex(where: { !$0.claimed && $0.recorded.key == key })
      else { return .orphan(waiter: contents.nextWaiter) }
      contents.slots[index].claimed = true
      if contents.slots[index].released { return .ready(contents.slots[index].recorded.outcome) }
      return .pending(slot: index, waiter: contents.nextWaiter)
    }
    let (index, id): (Int, Int)
    switch claim {
    case .ready(let outcome): return outcome
    case .orphan(let waiter):
      await waitUntilCancelled(waiter)
      return nil
    case .pending(let slot, let waiter): (index, id) = (slot, waiter)
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let ready = contents.withLock { contents -> Outcome?? in
          if contents.slots[index].released { return .some(contents.slots[index].recorded.outcome) }
          if Task.isCancelled { return .some(nil) }
          contents.slots[index].waiter = (id, continuation)
          return .none
        }
        if case .some(let outcome) = ready { continuation.resume(returning: outcome) }
      }
    } onCancel: {
      let waiter = contents.withLock { contents -> CheckedContinuation<Outcome?, Never>? in
        guard contents.slots[index].waiter?.id == id else { return nil }
        defer { contents.slots[index].waiter = nil }
        return contents.slots[index].waiter?.continuation
      }
      waiter?.resume(returning: nil)
    }
  }

  /// Waits until the task is cancelled: the effect whose outcome was never recorded.
  private func waitUntilCancelled(_ id: Int) async {
    _ = await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Outcome?, Never>) in
        let cancelled = contents.withLock { contents in
          if Task.isCancelled { return true }
          contents.orphans[id] = continuation
          return false
        }
        if cancelled { continuation.resume(returning: nil) }
      }
    } onCancel: {
      contents.withLock { $0.orphans.removeValue(forKey: id) }?.resume(returning: nil)
    }
  }

  /// Releases the outcome recorded at `record`: the effect waiting for it (now or later) gets it.
  public func release(_ record: Int) {
    let waiter = contents.withLock { contents -> (CheckedContinuation<Outcome?, Never>, Outcome)? in
      guard let index = contents.slots.firstIndex(where: { $0.recorded.record == record }) else {
        contents.problems.append("record #\(record) holds no effect's outcome")
        return nil
      }
      contents.slots[index].released = true
      guard let waiter = contents.slots[index].waiter else { return nil }
      contents.slots[index].waiter = nil
      return (waiter.continuation, contents.slots[index].recorded.outcome)
    }
    if let (continuation, outcome) = waiter { continuation.resume(returning: outcome) }
  }
}
