import CascadeStreams
import Foundation
import InspectorLink
import Logging
import WSClient

/// A running app's live session, as `cascade-inspect --live URL` inspects it: the steps its
/// endpoint (``InspectorLink/LiveInspector``) sent so far, each with its state and diff as the app
/// computed them, and "replay to here" forwarded to the app.
final class LiveInspection: FedInspection {
  /// The endpoint's URL, without its token (what the summary shows).
  let source: String
  private let url: URL
  /// The steps the app sent, their states kept up to 256 MiB, and as many steps as the app's
  /// endpoint keeps (its hello's `limit`; until it says, as many as an endpoint keeps by
  /// default).
  let feed = StepFeed(stateBudget: 256 << 20, stepLimit: LiveInspector.defaultStepLimit)
  /// "Replay to here": how to ask the app, and the answers awaited.
  private let shared = LockedValue(Shared())

  private struct Shared {
    var send: (@Sendable (String) async throws -> Void)?
    var nextRequest = 0
    var replies: [Int: CheckedContinuation<Data, Never>] = [:]
    var timingAsked = false
    /// The task reading the app's messages, cancelled by ``close()``.
    var reader: Task<Void, Never>?
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
      let reader = Task {
        var logger = Logger(label: "cascade-inspect")
        logger.logLevel = .critical
        let reason: String
        do {
          try await WebSocketClient.connect(
            url: url.absoluteString,
            configuration: WebSocketClientConfiguration(maxFrameSize: 1 << 24),
            logger: logger
          ) { inbound, outbound, _ in
            self.feed.connect()
            self.shared.withLock { shared in
              shared.send = { text in try await outbound.write(.text(text)) }
            }
            for try await message in inbound.messages(maxSize: 1 << 28) {
              guard case .text(let text) = message else { continue }
              for line in LiveInspector.texts(of: text) where self.receive(Data(line.utf8)) {
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
      shared.withLock { $0.reader = reader }
    }
    if let outcome {
      throw .liveUnreachable(url: source, reason: outcome)
    }
  }

  /// Closes the connection to the app (the inspector stops).
  func close() {
    shared.withLock { $0.reader }?.cancel()
  }

  /// Takes one message in; returns whether it was the hello.
  private func receive(_ data: Data) -> Bool {
    // A trace (megabytes) is handed on as it came: only its `traced` member is read.
    if data.prefix(Self.tracedPrefix.count) == Self.tracedPrefix,
      let members = JSONDiff.topLevelMembers(of: data),
      let traced = members.first(where: { $0.key == "traced" }),
      let answer = try? JSONSerialization.jsonObject(with: data.member(at: traced.value))
        as? [String: Any],
      let id = answer["id"] as? Int
    {
      let reply = shared.withLock { $0.replies.removeValue(forKey: id) }
      reply?.resume(returning: data)
      return false
    }
    // A step (most messages): only its `step` member is decoded, and a message that came
    // without its state is kept as it came.
    if data.prefix(Self.stepPrefix.count) == Self.stepPrefix,
      let members = JSONDiff.topLevelMembers(of: data),
      let step = members.first(where: { $0.key == "step" }),
      let line = StepMessage.Step.decoded(from: data.member(at: step.value))
    {
      let uncaptured = members.first(where: { $0.key == "captured" }).map {
        data.member(at: $0.value) == Data("false".utf8)
      }
      if uncaptured == true {
        feed.append(line, detail: data, stateless: data, captured: false)
      } else if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
        feed.append(line, detail: data, stateless: Self.stateless(object), captured: true)
      }
      return false
    }
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      return false
    }
    if let hello = object["hello"],
      let helloData = try? JSONSerialization.data(withJSONObject: hello),
      let decoded = try? JSONDecoder().decode(StepFeed.Header.self, from: helloData)
    {
      feed.setHeader(decoded)
      // A number from the app: one out of an endpoint's range is not taken.
      if let limit = (hello as? [String: Any])?["limit"] as? Int,
        LiveInspector.stepLimits.contains(limit)
      {
        feed.keep(last: limit)
      }
      return true
    }
    if let answer = (object["replayed"] ?? object["traced"] ?? object["timed"]) as? [String: Any],
      let id = answer["id"] as? Int
    {
      let reply = shared.withLock { $0.replies.removeValue(forKey: id) }
      reply?.resume(returning: data)
      return false
    }
    if let step = object["step"], let stepData = try? JSONSerialization.data(withJSONObject: step),
      let line = try? JSONDecoder().decode(StepMessage.Step.self, from: stepData)
    {
      feed.append(
        line,
        detail: data,
        stateless: Self.stateless(object),
        captured: object["captured"] as? Bool != false
      )
    }
    return false
  }

  /// A step's message without its state: `"captured":false` and a `null` state.
  private static func stateless(_ message: [String: Any]) -> Data {
    var message = message
    message["state"] = NSNull()
    message["captured"] = false
    message["rebuilt"] = nil
    return (try? JSONSerialization.data(withJSONObject: message, options: [.sortedKeys]))
      ?? Data("{}".utf8)
  }

  /// `/api/step/I`: the step as the app sent it, and when the app sent no state (it ran ahead
  /// of its encoding) or the state was let go, the state rebuilt by "replay to here", marked
  /// `"rebuilt":true`; without its state if the app is gone.
  func servedStep(_ index: Int) async throws -> Data? {
    guard let detail = feed.step(index) else { return nil }
    guard feed.isStateless(index) else { return detail }
    let answer = await replay(toStep: index)
    guard let replayed = try? JSONSerialization.jsonObject(with: answer) as? [String: Any],
      let state = replayed["state"],
      var message = try? JSONSerialization.jsonObject(with: detail) as? [String: Any]
    else { return detail }
    message["state"] = state
    message["captured"] = nil
    message["rebuilt"] = true
    guard let rebuilt = try? JSONSerialization.data(withJSONObject: message, options: [.sortedKeys])
    else { return detail }
    feed.complete(index, detail: rebuilt, stateless: detail)
    return rebuilt
  }

  private func end(_ reason: String) {
    feed.end(reason)
    let replies = shared.withLock { shared in
      shared.send = nil
      defer { shared.replies = [:] }
      return Array(shared.replies.values)
    }
    let answer = Data(#"{"replayed":{"error":"the app is gone"}}"#.utf8)
    for reply in replies { reply.resume(returning: answer) }
  }

  func replay(toStep step: Int) async -> Data {
    await ask { id in #"{"replay":{"id":\#(id),"steps":\#(step + 1)}}"# }
  }

  /// How a step's message begins (``InspectorLink/StepMessage``'s keys, sorted); compared
  /// as bytes (`==`, one `memcmp`): `starts(with:)` walked both byte by byte.
  static let stepPrefix = Data(#"{"diff":"#.utf8)

  /// How the app's answer to a trace begins (``LiveInspector``'s).
  static let tracedPrefix = Data(#"{"traced":"#.utf8)

  /// `/api/trace`: the app's timings of its last `last` inputs, as Chrome's trace event format.
  func trace(last: Int) async throws(TraceUnavailable) -> Data {
    let answer = await ask { id in #"{"trace":{"id":\#(id),"last":\#(last)}}"# }
    // The trace's bytes as the app wrote them: not parsed, not written again.
    if let trace = JSONDiff.topLevelMembers(of: answer)?.first(where: { $0.key == "trace" }) {
      return Data(answer.member(at: trace.value))
    }
    guard let object = try? JSONSerialization.jsonObject(with: answer) as? [String: Any] else {
      throw TraceUnavailable(reason: "the app's answer is not JSON")
    }
    let error =
      ((object["traced"] ?? object["replayed"]) as? [String: Any])?["error"] as? String
    throw TraceUnavailable(reason: error ?? "the app sent no trace")
  }

  /// `/api/timing`: asks the app to time its inputs for the trace from now on, or no longer
  /// (``InspectorLink/LiveInspector``'s `{"timing":…}`), or only reads what this inspector asks.
  func timing(_ on: Bool?) async throws(TraceUnavailable) -> (asked: Bool, timed: Bool?) {
    guard let on else { return (shared.withLock { $0.timingAsked }, nil) }
    let answer = await ask { id in #"{"timing":{"id":\#(id),"on":\#(on)}}"# }
    let object = try? JSONSerialization.jsonObject(with: answer) as? [String: Any]
    guard let timed = (object?["timed"] as? [String: Any])?["on"] as? Bool else {
      shared.withLock { $0.timingAsked = false }
      throw TraceUnavailable(reason: "the app is gone")
    }
    shared.withLock { $0.timingAsked = on }
    return (on, timed)
  }

  /// Sends the app the request `make(id)` makes and returns its answer (the message whose
  /// `replayed` or `traced` has that id), or an error answer once the app is gone.
  private func ask(_ make: @escaping @Sendable (Int) -> String) async -> Data {
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
          try await send(make(id))
        } catch {
          let reply = shared.withLock { $0.replies.removeValue(forKey: id) }
          reply?.resume(returning: Data(#"{"replayed":{"error":"the app is gone"}}"#.utf8))
        }
      }
    }
  }

}

extension Data {
  /// The bytes at `range`, offsets from the first byte (as ``JSONDiff/topLevelMembers(of:)``
  /// gives them), whatever this data's indices are.
  fileprivate func member(at range: Range<Int>) -> Data {
    self[(startIndex + range.lowerBound)..<(startIndex + range.upperBound)]
  }
}
