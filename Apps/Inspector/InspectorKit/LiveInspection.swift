import CascadeStreams
import Foundation
import InspectorLink
import Logging
import WSClient

/// A running app's live session, as `cascade-inspect --live URL` inspects it: the steps its
/// endpoint (``InspectorLink/LiveInspector``) sent so far, each with its state and diff as the app
/// computed them, and "replay to here" forwarded to the app.
final class LiveInspection: InspectionAPI {
  /// The endpoint's URL, without its token (what the summary shows).
  let source: String
  private let url: URL
  private let shared = LockedValue(Shared())

  private struct Shared {
    var hello = Hello(app: "?", architecture: "?", command: "?")
    var lines: [StepMessage.Step] = []
    var details: [Data] = []
    var kindCounts: [String: Int] = [:]
    var connected = false
    var ended: String?
    var waiters: [(id: Int, after: Int, continuation: CheckedContinuation<Void, Never>)] = []
    var nextWaiter = 0
    /// Waiters cancelled before they waited (the handler ran first).
    var cancelled: Set<Int> = []
    var send: (@Sendable (String) async throws -> Void)?
    var nextRequest = 0
    var replies: [Int: CheckedContinuation<Data, Never>] = [:]
  }

  struct Hello: Codable {
    var app: String
    var architecture: String
    var command: String
  }

  init(url: URL) {
    self.url = url
    var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    components?.query = nil
    source = components?.string ?? "?"
  }

  /// Connects to the endpoint and reads its messages until it closes: returns once the hello
  /// arrived (or throws), and goes on reading in the background.
  ///
  /// - Throws: ``InspectorError/liveUnreachable(url:reason:)`` when the endpoint cannot be
  ///   reached, refuses the token, or sends no hello.
  func connect() async throws(InspectorError) {
    let greeted = LockedValue<CheckedContinuation<String?, Never>?>(nil)
    let url = url
    let outcome: String? = await withCheckedContinuation { continuation in
      greeted.withLock { $0 = continuation }
      Task {
        var logger = Logger(label: "cascade-inspect")
        logger.logLevel = .critical
        let reason: String
        do {
          try await WebSocketClient.connect(
            url: url.absoluteString,
            configuration: WebSocketClientConfiguration(maxFrameSize: 1 << 24),
            logger: logger
          ) { inbound, outbound, _ in
            self.shared.withLock { shared in
              shared.connected = true
              shared.send = { text in try await outbound.write(.text(text)) }
            }
            for try await message in inbound.messages(maxSize: 1 << 28) {
              guard case .text(let text) = message else { continue }
              if self.receive(Data(text.utf8)) {
                greeted.withLock {
                  $0?.resume(returning: nil)
                  $0 = nil
                }
              }
            }
          }
          reason = "the app closed the connection"
        } catch {
          reason = "\(error)"
        }
        greeted.withLock {
          $0?.resume(returning: reason)
          $0 = nil
        }
        self.end(reason)
      }
    }
    if let outcome {
      throw .liveUnreachable(url: source, reason: outcome)
    }
  }

  /// Takes one message in; returns whether it was the hello.
  private func receive(_ data: Data) -> Bool {
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      return false
    }
    if let hello = object["hello"],
      let helloData = try? JSONSerialization.data(withJSONObject: hello),
      let decoded = try? JSONDecoder().decode(Hello.self, from: helloData)
    {
      shared.withLock { $0.hello = decoded }
      return true
    }
    if let replayed = object["replayed"] as? [String: Any], let id = replayed["id"] as? Int {
      let reply = shared.withLock { $0.replies.removeValue(forKey: id) }
      reply?.resume(returning: data)
      return false
    }
    if let step = object["step"], let stepData = try? JSONSerialization.data(withJSONObject: step),
      let line = try? JSONDecoder().decode(StepMessage.Step.self, from: stepData)
    {
      let ready = shared.withLock { shared in
        shared.lines.append(line)
        shared.details.append(data)
        shared.kindCounts[line.kind, default: 0] += 1
        return Self.takeWaiters(&shared)
      }
      for waiter in ready { waiter.resume() }
    }
    return false
  }

  private func end(_ reason: String) {
    let (waiters, replies) = shared.withLock { shared in
      shared.connected = false
      shared.ended = reason
      shared.send = nil
      defer {
        shared.waiters = []
        shared.replies = [:]
      }
      return (shared.waiters.map(\.continuation), Array(shared.replies.values))
    }
    for waiter in waiters { waiter.resume() }
    let answer = Data(#"{"replayed":{"error":"the app is gone"}}"#.utf8)
    for reply in replies { reply.resume(returning: answer) }
  }

  private static func takeWaiters(_ shared: inout Shared) -> [CheckedContinuation<Void, Never>] {
    let count = shared.lines.count
    let ready = shared.waiters.filter { $0.after < count }.map(\.continuation)
    shared.waiters.removeAll { $0.after < count }
    return ready
  }

  var isLive: Bool { true }

  /// Returns once there are more than `count` steps, the app is gone, or the task is cancelled.
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

  func replay(toStep step: Int) async -> Data {
    await withCheckedContinuation { (continuation: CheckedContinuation<Data, Never>) in
      let request = shared.withLock { shared -> (Int, @Sendable (String) async throws -> Void)? in
        guard let send = shared.send else { return nil }
        let id = shared.nextRequest
        shared.nextRequest += 1
        shared.replies[id] = continuation
        return (id, send)
      }
      guard let (id, send) = request else {
        continuation.resume(returning: Data(#"{"replayed":{"error":"the app is gone"}}"#.utf8))
        return
      }
      Task {
        do {
          try await send(#"{"replay":{"id":\#(id),"steps":\#(step + 1)}}"#)
        } catch {
          let reply = shared.withLock { $0.replies.removeValue(forKey: id) }
          reply?.resume(returning: Data(#"{"replayed":{"error":"the app is gone"}}"#.utf8))
        }
      }
    }
  }

  func summary() -> Data {
    let (hello, count, kinds, connected, ended) = shared.withLock {
      ($0.hello, $0.lines.count, $0.kindCounts, $0.connected, $0.ended)
    }
    return LiveInspector.encodeJSON(
      Summary(
        path: source,
        app: hello.app,
        architecture: hello.architecture,
        command: hello.command,
        steps: count,
        kinds: kinds,
        live: true,
        connected: connected && ended == nil,
        ended: ended
      )
    )
  }

  func steps(from: Int, count: Int, kind: StepKind?) -> Data {
    let lines = shared.withLock { $0.lines }
    let chosen = kind.map { kind in lines.filter { $0.kind == kind.description } } ?? lines
    let start = min(max(0, from), chosen.count)
    let end = min(chosen.count, start + max(0, min(count, 1000)))
    return LiveInspector.encodeJSON(
      StepPage(total: chosen.count, from: start, steps: Array(chosen[start..<end]))
    )
  }

  func step(_ index: Int) throws -> Data? {
    shared.withLock { $0.details.indices.contains(index) ? $0.details[index] : nil }
  }

  func prepareWarming() {}

  func warm() {}
}
