import CascadeStreams
import Foundation
import InspectorLink

/// Steps that arrive one at a time with their states and diffs already computed — from a
/// running app's endpoint (``LiveInspection``) or from a recording as it is written
/// (``FollowedRecording``) — and the page's waits for more.
///
/// A live app's feed keeps the states of its steps up to a budget of bytes: beyond it the
/// oldest are let go (their steps stay, with `"captured":false`), and a state asked for again is
/// rebuilt by "replay to here" (``LiveInspection/servedStep(_:)``), as are the states the app did
/// not capture. It keeps its last steps up to a limit, the oldest let go beyond it, as the app's
/// endpoint does (``InspectorLink/LiveInspector/stepLimit``).
///
/// Steps are found by their indices, which need not start at 0 nor follow each other: an app's
/// endpoint sends a client that connects late, or falls behind, the steps it still keeps.
final class StepFeed: Sendable {
  /// What the summary says the steps are of.
  struct Header: Codable, Sendable {
    var app: String
    var architecture: String
    var command: String
  }

  private let shared: LockedValue<Shared>

  /// A feed that keeps the states of its steps up to `stateBudget` bytes and its last
  /// `stepLimit` steps (`nil`: all).
  init(stateBudget: Int? = nil, stepLimit: Int? = nil) {
    shared = LockedValue(
      Shared(
        kept: stateBudget.map { StateBudget(bytes: $0) },
        stepLimit: stepLimit.map { max(1, $0) }
      )
    )
  }

  private struct Shared {
    var header = Header(app: "?", architecture: "?", command: "?")
    /// The steps kept, in the order of their indices.
    var lines: [StepMessage.Step] = []
    /// Their messages, in the same order.
    var details: [Data] = []
    /// How many steps came, those let go included.
    var received = 0
    /// The indices of the steps whose messages have no state: not captured by the app, or let
    /// go here.
    var stateless: Set<Int> = []
    /// The steps whose states are kept (each with its message without its state, to fall back
    /// to), or `nil`: every one.
    var kept: StateBudget<Data>?
    var kindCounts: [String: Int] = [:]
    var connected = false
    var ended: String?
    var waiters: [(id: Int, after: Int, continuation: CheckedContinuation<Void, Never>)] = []
    var nextWaiter = 0
    /// Waiters cancelled before they waited (the handler ran first).
    var cancelled: Set<Int> = []
    /// The most steps kept, if there is a limit: beyond it the oldest are let go, a sixteenth
    /// of it at a time.
    var stepLimit: Int?

    /// The position of step `index` among ``lines``, if it is kept.
    func position(of index: Int) -> Int? {
      // Most steps asked for are kept, and most feeds' indices follow each other from the first.
      // `index` from a request (any integer): compared before it is subtracted from.
      if let first = lines.first?.index, index >= first, index - first < lines.count,
        lines[index - first].index == index
      {
        return index - first
      }
      var low = 0
      var high = lines.count
      while low < high {
        let middle = (low + high) / 2
        if lines[middle].index < index { low = middle + 1 } else { high = middle }
      }
      return low < lines.count && lines[low].index == index ? low : nil
    }
  }

  /// How many steps came, those let go included.
  var count: Int { shared.withLock { $0.received } }

  /// Whether the source has ended (and why).
  var ended: String? { shared.withLock { $0.ended } }

  /// Says what the steps are of.
  func setHeader(_ header: Header) {
    shared.withLock { $0.header = header }
  }

  /// Keeps the last `stepLimit` steps from now on (a live app's endpoint says how many it
  /// keeps: the feed keeps as many).
  func keep(last stepLimit: Int) {
    shared.withLock { $0.stepLimit = max(1, stepLimit) }
  }

  /// Says that the source is connected, and steps may come.
  func connect() {
    shared.withLock { $0.connected = true }
  }

  /// Adds a step: its line in the timeline, and its `{"step":…,"state":…,"diff":…}` message.
  ///
  /// Its index is after the last step's: a step that comes again, or out of order, is ignored.
  ///
  /// - Parameters:
  ///   - line: The step, as the timeline shows it.
  ///   - detail: Its message.
  ///   - stateless: The message without its state (`"captured":false`), for a feed with a
  ///     budget: kept in its place when the state is let go, or at once when `captured` is
  ///     `false`.
  ///   - captured: Whether the app sent the state (`false`: `detail` has none).
  func append(
    _ line: StepMessage.Step,
    detail: Data,
    stateless: Data? = nil,
    captured: Bool = true
  ) {
    let ready = shared.withLock { shared -> [CheckedContinuation<Void, Never>] in
      if let last = shared.lines.last, line.index <= last.index { return [] }
      let index = line.index
      shared.lines.append(line)
      shared.received += 1
      if !captured, let stateless {
        shared.details.append(stateless)
        shared.stateless.insert(index)
      } else {
        shared.details.append(detail)
        if let stateless { keep(index, stateless: stateless, bytes: detail.count, in: &shared) }
      }
      shared.kindCounts[line.kind, default: 0] += 1
      if let stepLimit = shared.stepLimit, shared.lines.count > stepLimit + max(1, stepLimit / 16) {
        letGo(shared.lines.count - stepLimit, in: &shared)
      }
      let count = shared.received
      let ready = shared.waiters.filter { $0.after < count }.map(\.continuation)
      shared.waiters.removeAll { $0.after < count }
      return ready
    }
    for waiter in ready { waiter.resume() }
  }

  /// Replaces the stateless message of step `index` by `detail`, its state rebuilt; `stateless`
  /// is kept to fall back to.
  func complete(_ index: Int, detail: Data, stateless: Data) {
    shared.withLock { shared in
      guard shared.stateless.contains(index), let position = shared.position(of: index) else {
        return
      }
      shared.details[position] = detail
      shared.stateless.remove(index)
      keep(index, stateless: stateless, bytes: detail.count, in: &shared)
    }
  }

  /// Whether step `index`'s message has no state.
  func isStateless(_ index: Int) -> Bool {
    shared.withLock { $0.stateless.contains(index) }
  }

  /// Counts step `index`'s state among the kept ones, and lets the oldest go beyond the budget.
  private func keep(_ index: Int, stateless: Data, bytes: Int, in shared: inout Shared) {
    guard let evicted = shared.kept?.keep(index, bytes: bytes, stateless) else { return }
    for (oldest, message) in evicted {
      guard let position = shared.position(of: oldest) else { continue }
      shared.details[position] = message
      shared.stateless.insert(oldest)
    }
  }

  /// Lets the oldest `count` steps go.
  private func letGo(_ count: Int, in shared: inout Shared) {
    for line in shared.lines.prefix(count) {
      shared.stateless.remove(line.index)
      shared.kindCounts[line.kind, default: 1] -= 1
      if shared.kindCounts[line.kind] == 0 { shared.kindCounts[line.kind] = nil }
    }
    shared.lines.removeFirst(count)
    shared.details.removeFirst(count)
    if let first = shared.lines.first?.index { shared.kept?.forget(before: first) }
  }

  /// Ends the feed: no more steps come, and every wait returns.
  func end(_ reason: String) {
    let waiters = shared.withLock { shared in
      shared.connected = false
      if shared.ended == nil { shared.ended = reason }
      defer { shared.waiters = [] }
      return shared.waiters.map(\.continuation)
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Returns once there are more than `count` steps, the feed has ended, or the task is
  /// cancelled.
  func waitForSteps(beyond count: Int) async {
    let id = shared.withLock { shared in
      defer { shared.nextWaiter += 1 }
      return shared.nextWaiter
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let now = shared.withLock { shared -> Bool in
          guard shared.received <= count, shared.ended == nil, !shared.cancelled.contains(id)
          else { return true }
          shared.waiters.append((id, count, continuation))
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      let waiter = shared.withLock { shared in
        shared.cancelled.insert(id)
        if let index = shared.waiters.firstIndex(where: { $0.id == id }) {
          return Optional(shared.waiters.remove(at: index).continuation)
        }
        return nil
      }
      waiter?.resume()
    }
    shared.withLock { _ = $0.cancelled.remove(id) }
  }

  /// `/api/summary`'s answer for steps from `source`.
  func summary(source: String) -> Data {
    let (header, count, kept, kinds, connected, ended) = shared.withLock {
      ($0.header, $0.received, $0.lines.count, $0.kindCounts, $0.connected, $0.ended)
    }
    return LiveInspector.encodeJSON(
      Summary(
        path: source,
        app: header.app,
        architecture: header.architecture,
        command: header.command,
        steps: count,
        kept: kept < count ? kept : nil,
        kinds: kinds,
        live: true,
        connected: connected && ended == nil,
        ended: ended
      )
    )
  }

  /// `/api/steps`' answer.
  func steps(from: Int, count: Int, kind: StepKind?, search: String) -> Data {
    let lines = shared.withLock { $0.lines }
    var chosen = kind.map { kind in lines.filter { $0.kind == kind.description } } ?? lines
    if !search.isEmpty {
      let text = search.lowercased()
      chosen = chosen.filter { $0.description.lowercased().contains(text) }
    }
    let start = min(max(0, from), chosen.count)
    let end = min(chosen.count, start + max(0, min(count, 1000)))
    return LiveInspector.encodeJSON(
      StepPage(total: chosen.count, from: start, steps: Array(chosen[start..<end]))
    )
  }

  /// Every step's message, in order.
  var details: [Data] { shared.withLock { $0.details } }

  /// `/api/step/I`'s answer, or `nil` if there is no such step (or it was let go).
  func step(_ index: Int) -> Data? {
    shared.withLock { shared in shared.position(of: index).map { shared.details[$0] } }
  }
}

/// An inspection whose steps arrive in a ``StepFeed``: its API answers from the feed.
protocol FedInspection: InspectionAPI {
  /// The steps.
  var feed: StepFeed { get }
  /// What the summary names as the steps' source: a file's path, an endpoint's URL.
  var source: String { get }
}

extension FedInspection {
  /// The steps may grow.
  var isLive: Bool { true }

  func waitForSteps(beyond count: Int) async {
    await feed.waitForSteps(beyond: count)
  }

  func summary() -> Data { feed.summary(source: source) }

  func steps(from: Int, count: Int, kind: StepKind?, search: String) -> Data {
    feed.steps(from: from, count: count, kind: kind, search: search)
  }

  func step(_ index: Int) throws -> Data? { feed.step(index) }

  func export() throws -> Data { exportMessages(feed.details) }

  /// Nothing to compute ahead: the steps come with their states.
  func prepareWarming() {}

  /// Nothing to compute ahead: the steps come with their states.
  func warm() {}
}
