import CascadeStreams
import CascadeTestSupport
import Dispatch

/// The three architectures the integration suites run on.
enum Architecture: String, CaseIterable, Sendable, CustomStringConvertible {
  case store
  case reactor
  case feedback

  var description: String { rawValue }
}

/// What the ledger app is sent.
enum LedgerInput: Sendable, Equatable {
  /// An entry from one producer: `sequence` counts that producer's entries from 0.
  case entry(producer: Int, sequence: Int, amount: Int)
  /// One step of a reentrancy chain: appended to the log.
  case chain(Int)
  /// Starts work in flight of `kind` (teardown tests).
  case startWork(WorkKind)
  /// A tick from work in flight.
  case tick

  /// The work an app can have in flight.
  enum WorkKind: Sendable, Equatable {
    /// An `async` task (a store's command, a reactor's operation, a loop's async effect).
    case task
    /// A stream on a background timer (a stream command, mutation stream or effect).
    case stream
  }
}

/// The ledger: what every producer sent, checked as it is reduced.
struct Ledger: Sendable, Equatable {
  /// The sum of every entry's amount.
  var total = 0
  /// How many inputs were reduced.
  var count = 0
  /// Per producer, the last sequence number reduced (-1 before the first).
  var last: [Int]
  /// Entries whose sequence was not the one after their producer's last: lost, duplicated or
  /// reordered inputs.
  var violations = 0
  /// The chain steps reduced, in order.
  var log: [Int] = []
  /// Ticks from work in flight.
  var ticks = 0
  /// Whether an async task, and a timer stream, should be running.
  var runsTask = false
  var runsStream = false

  init(producers: Int) {
    last = [Int](repeating: -1, count: producers)
  }

  /// Reduces one input, in place.
  mutating func apply(_ input: LedgerInput) {
    count += 1
    switch input {
    case .entry(let producer, let sequence, let amount):
      if last[producer] + 1 != sequence { violations += 1 }
      last[producer] = sequence
      total += amount
    case .chain(let step):
      log.append(step)
    case .startWork(.task):
      runsTask = true
    case .startWork(.stream):
      runsStream = true
    case .tick:
      ticks += 1
    }
  }
}

/// The reentrancy chain: every place that can send, on seeing step `v` (0 ≤ v < limit), sends
/// `v + 1` and then `-(v + 1)`.
///
/// Queued sends (first in, first out, each after the current input has been fully processed)
/// give the log `0, 1, -1, 2, -2, …, limit, -limit`; a send processed recursively would nest
/// them (`0, 1, 2, …`) and a lost one would shorten it.
enum Chain {
  static func follow(_ input: LedgerInput, limit: Int) -> [LedgerInput] {
    guard case .chain(let step) = input, step >= 0, step < limit else { return [] }
    return [.chain(step + 1), .chain(-(step + 1))]
  }

  static func expectedLog(limit: Int) -> [Int] {
    [0] + (1...limit).flatMap { [$0, -$0] }
  }
}

/// Measures how deeply a callout is nested: `maximum` stays 1 when calls never overlap (on one
/// thread: never recursive; across threads: serialized).
final class DepthGauge: Sendable {
  private let depth = LockedValue((current: 0, maximum: 0, calls: 0))

  init() {}

  func enter() {
    depth.withLock {
      $0.current += 1
      $0.calls += 1
      $0.maximum = max($0.maximum, $0.current)
    }
  }

  func exit() {
    depth.withLock { $0.current -= 1 }
  }

  /// Runs `body` between `enter()` and `exit()`.
  func measure<T>(_ body: () throws -> T) rethrows -> T {
    enter()
    defer { exit() }
    return try body()
  }

  /// The deepest nesting seen.
  var maximum: Int { depth.withLock { $0.maximum } }

  /// How many calls were measured.
  var calls: Int { depth.withLock { $0.calls } }
}

/// A send function set after the app exists, for the closures the app is built from (a reducer
/// that sends into its own app).
final class Inbox: Sendable {
  private let target = LockedValue<(@Sendable (LedgerInput) -> Void)?>(nil)

  init() {}

  func connect(_ send: @escaping @Sendable (LedgerInput) -> Void) {
    target.withLock { $0 = send }
  }

  func send(_ input: LedgerInput) {
    // Read under the lock, called outside it.
    let send = target.withLock { $0 }
    send?(input)
  }
}

/// What teardown tests observe of an app's work in flight.
final class WorkProbe: Sendable {
  /// Work that started running: a task whose body runs, a stream that was subscribed (a stream
  /// handed over but never subscribed, because the app closed first, never starts, and has
  /// nothing to end).
  let started = Watched(0)
  /// Work that observed its end (a task that saw its cancellation, a stream's disposal).
  let ended = Watched(0)
  /// What started and ended, in order (`+task`, `-stream`, `~task` for a task's cancel
  /// handler...), for a failure's message.
  let events = LockedValue<[String]>([])
  /// The ``WorkHold``s alive: each is captured by the closure of one piece of work the app handed
  /// to its architecture, so this comes back to 0 once the architecture has released them all.
  let held = Watched(0)
  /// Send functions the work escaped, to try after the app is gone.
  let escaped = LockedValue<[@Sendable (LedgerInput) -> Void]>([])
  /// The queue the work's timers tick on: the probe's own, so that a test can wait for the ticks
  /// running on it (``drainTimers()``).
  let timerQueue = DispatchQueue(label: "ledger.work.timers", attributes: .concurrent)

  init() {}

  func start(_ kind: LedgerInput.WorkKind) {
    events.withLock { $0.append("+\(kind)") }
    started.update { $0 += 1 }
  }
  /// Logs `event` without counting it.
  func note(_ event: String) {
    events.withLock { $0.append(event) }
  }
  func end(_ kind: LedgerInput.WorkKind) {
    events.withLock { $0.append("-\(kind)") }
    ended.update { $0 += 1 }
  }
  func escape(_ send: @escaping @Sendable (LedgerInput) -> Void) {
    escaped.withLock { $0.append(send) }
  }

  /// A hold for the closure of one piece of work: counted in ``held`` until it is released.
  func hold() -> WorkHold { WorkHold(self) }

  /// Waits until every tick that was running on ``timerQueue`` has returned (a barrier: it runs
  /// once they are done, without blocking a thread meanwhile).
  func drainTimers() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      timerQueue.async(flags: .barrier) { continuation.resume() }
    }
  }
}

/// Captured by the closure of a piece of work; counts itself in its probe's ``WorkProbe/held``
/// until the last reference to it goes.
///
/// The architecture runs the closure in a task whose context holds it; the hold goes when that
/// context does, after the closure returned and after what the architecture does when it returns
/// (ending the task, counting its resource back).
final class WorkHold: Sendable {
  private let probe: WorkProbe

  init(_ probe: WorkProbe) {
    self.probe = probe
    probe.held.update { $0 += 1 }
  }

  deinit { probe.held.update { $0 -= 1 } }

  /// Does nothing: a closure calls it to capture the hold.
  func keep() {}
}
