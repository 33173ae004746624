import CascadeStreams
import Foundation
import InspectorLink

/// Steps that arrive one at a time with their states and diffs already computed — from a
/// running app's endpoint (``LiveInspection``) or from a recording as it is written
/// (``FollowedRecording``) — and the page's waits for more.
///
/// A live app's feed keeps the states of its steps up to ``stateBudget`` bytes: beyond it the
/// oldest are let go (their steps stay, with `"captured":false`), and a state asked for again is
/// rebuilt by "replay to here" (``LiveInspection/servedStep(_:)``), as are the states the app did
/// not capture.
final class StepFeed: Sendable {
  /// What the summary says the steps are of.
  struct Header: Codable, Sendable {
    var app: String
    var architecture: String
    var command: String
  }

  private let shared: LockedValue<Shared>

  /// A feed that keeps the states of its steps up to `stateBudget` bytes (`nil`: all).
  init(stateBudget: Int? = nil) {
    shared = LockedValue(Shared(kept: stateBudget.map { StateBudget(bytes: $0) }))
  }

  private struct Shared {
    var header = Header(app: "?", architecture: "?", command: "?")
    var lines: [StepMessage.Step] = []
    var details: [Data] = []
    /// The steps whose messages have no state: not captured by the app, or let go here.
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
  }

  /// How many steps there are.
  var count: Int { shared.withLock { $0.lines.count } }

  /// Whether the source has ended (and why).
  var ended: String? { shared.withLock { $0.ended } }

  /// Says what the steps are of.
  func setHeader(_ header: Header) {
    shared.withLock { $0.header = header }
  }

  /// Says that the source is connected, and steps may come.
  func connect() {
    shared.withLock { $0.connected = true }
  }

  /// Adds a step: its line in the timeline, and its `{"step":…,"state":…,"diff":…}` message.
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
    let ready = shared.withLock { shared in
      let index = shared.lines.count
      shared.lines.append(line)
      if !captured, let stateless {
        shared.details.append(stateless)
        shared.stateless.insert(index)
      } else {
        shared.details.append(detail)
        if let stateless { keep(index, stateless: stateless, bytes: detail.count, in: &shared) }
      }
      shared.kindCounts[line.kind, default: 0] += 1
      let count = shared.lines.count
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
      guard shared.details.indices.contains(index), shared.stateless.contains(index) else {
        return
      }
      shared.details[index] = detail
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
      shared.details[oldest] = message
      shared.stateless.insert(oldest)
    }
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
          guard shared.lines.count <= count, shared.ended == nil, !shared.cancelled.contains(id)
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
    let (header, count, kinds, connected, ended) = shared.withLock {
      ($0.header, $0.lines.count, $0.kindCounts, $0.connected, $0.ended)
    }
    return LiveInspector.encodeJSON(
      Summary(
        path: source,
        app: header.app,
        architecture: header.architecture,
        command: header.command,
        steps: count,
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

  /// `/api/step/I`'s answer, or `nil` if there is no such step.
  func step(_ index: Int) -> Data? {
    shared.withLock { $0.details.indices.contains(index) ? $0.details[index] : nil }
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
