public import AppSupport
import CascadeMiddleware
import CascadeStore
import CascadeStreams
import FlyingFox
public import Foundation

/// An app's live inspection endpoint: `rpg|movies|todo --inspect` open one, and
/// `cascade-inspect --live URL` attaches to it.
///
/// It serves one WebSocket, `ws://127.0.0.1:PORT/live?token=…`, on the loopback interface. A
/// client that connects receives, as JSON text messages:
///
/// - `{"hello":{"app":…,"architecture":…,"command":…}}`, first;
/// - every step so far, then each new one as the app processes it: `{"step":{…},"diff":…,
///   "input":…,"state":…}`, the input with its kind and source, the change it made
///   (``JSONDiff``'s lines) and the state after it — the shape of `cascade-inspect`'s
///   `/api/step/I` answer. A step whose state was not captured (the app ran ahead of the
///   encoding: ``LiveInputs``) or is no longer kept (``stateBudget``) has `"captured":false` and
///   a `null` state; its diff, if any, starts from the step `diffFrom`.
///
/// It may send `{"replay":{"id":K,"steps":N}}`: "replay to here". The app builds a fresh service
/// and replays the inputs of the first `N` steps into it, in replay mode (the recorded states and
/// no effect: no request, no write), through the closure given to ``onReplay(_:)``; the answer
/// is `{"replayed":{"id":K,"steps":N,"matches":true|false},"state":…}`, `matches` saying whether
/// the fresh service's state is the state recorded after step `N - 1` (no `matches` when that
/// state was not captured or is no longer kept: the fresh service's state is then the step's).
/// The running app is left as it is.
///
/// It may send `{"trace":{"id":K,"last":N}}`: the engine's timings of the last `N` inputs (1 to
/// 100,000) and of the effects that ran meanwhile, in Chrome's trace event format (Perfetto opens
/// it: `CascadeMiddleware.ChromeTrace`), each input named as its step; the answer is
/// `{"traced":{"id":K},"trace":{…}}`. The app is timed only while a client is connected (from
/// the first one's connection to the last one's departure): with none, the engine reads no clock
/// for it, and the trace holds the inputs of the times someone looked.
///
/// ```swift
/// let inspector = LiveInspector(app: "todo", architecture: .store, command: "shell")
/// let inputs = inspector.inputs(of: TodoState.self, kind: .event)  // the last middleware
/// let url = try await inspector.start(port: 0)  // ws://127.0.0.1:PORT/live?token=…
/// ```
///
/// **Security.** It listens on 127.0.0.1 only, answers only a `Host` of `127.0.0.1:PORT` or
/// `localhost:PORT` (421 otherwise), only `GET /live` with the token (403 otherwise), and the only
/// things a client can ask are a replay, which runs no effect, and a trace.
public final class LiveInspector: Sendable {
  /// The app's name: `rpg`, `movies`, `todo`.
  public let app: String
  /// The architecture the app's service is built on.
  public let architecture: Architecture
  /// The front's command.
  public let command: String
  /// The secret a client must carry.
  public let token: String
  /// The most bytes of states (as JSON) kept for clients and for replays' checks; beyond it the
  /// oldest steps' states are let go (their steps and inputs are kept).
  public let stateBudget: Int
  private let shared: LockedValue<Shared>
  private let server = LockedValue<LoopbackServer?>(nil)

  /// A step: its message up to its state, and the state after it while it is kept.
  private struct Entry {
    var head: Data
    var state: Data?
    /// The input's sequence (``StepTiming/sequence``) and its name, for the trace.
    var sequence: UInt64
    var name: String

    var message: Data {
      var message = head
      if let state {
        message.append(contentsOf: Array(#","state":"#.utf8))
        message.append(state)
      } else {
        message.append(contentsOf: Array(#","captured":false,"state":null"#.utf8))
      }
      message.append(UInt8(ascii: "}"))
      return message
    }
  }

  private struct Shared {
    var steps: [Entry] = []
    /// The steps whose states are kept.
    var kept: StateBudget<Void>
    var captured = 0
    var clients: [Int: AsyncStream<WSMessage>.Continuation] = [:]
    var nextClient = 0
    var replay: (@Sendable (Int) async throws -> any Encodable & Sendable)?
    /// The timings of the architecture inspected (``LiveInputs/tracer``).
    var timings: TraceBuffer?
    /// Waits for the middleware's thread to publish every step processed so far.
    var caughtUp: (@Sendable () async -> Void)?
    /// Whether the app is timed with no client connected (``startTracing()``).
    var tracingAsked = false
  }

  /// Creates an endpoint for `app` on `architecture`, running `command`; nothing is served yet.
  public init(
    app: String,
    architecture: Architecture,
    command: String,
    token: String = LoopbackServer.makeToken(),
    stateBudget: Int = 256 << 20
  ) {
    self.stateBudget = stateBudget
    shared = LockedValue(Shared(kept: StateBudget(bytes: stateBudget)))
    self.app = app
    self.architecture = architecture
    self.command = command
    self.token = token
  }

  /// Starts listening on 127.0.0.1 and `port` (0: a free one), and returns the WebSocket's URL,
  /// `ws://127.0.0.1:PORT/live?token=…`.
  ///
  /// - Throws: ``LoopbackServer/StartError`` when the port cannot be listened on.
  public func start(port: UInt16 = 0) async throws(LoopbackServer.StartError) -> URL {
    let handler = LiveHandler(inspector: self)
    let server = try await LoopbackServer.start(port: port, handler: handler)
    handler.port.withLock { $0 = server.port }
    self.server.withLock { $0 = server }
    guard let url = URL(string: "ws://127.0.0.1:\(server.port)/live?token=\(token)") else {
      throw LoopbackServer.StartError(description: "cannot make the endpoint's URL")
    }
    return url
  }

  /// Ends every client's stream and stops listening.
  public func stop() async {
    let clients = shared.withLock { shared in
      defer { shared.clients = [:] }
      return shared.clients.values
    }
    for client in clients { client.finish() }
    let server = server.withLock { server in
      defer { server = nil }
      return server
    }
    await server?.stop()
  }

  /// How "replay to here" brings a fresh service to a step: `replay(n)` builds a fresh service
  /// as the app's started, replays the inputs of the first `n` steps into it in replay mode, and
  /// returns its state.
  public func onReplay(
    _ replay: @escaping @Sendable (_ steps: Int) async throws -> any Encodable & Sendable
  ) {
    shared.withLock { $0.replay = replay }
  }

  /// How many steps were published.
  public var stepCount: Int { shared.withLock { $0.steps.count } }

  /// How many steps were published with the state after them (``LiveInputs`` captures fewer
  /// than every state when the app runs ahead of the encoding).
  public var capturedCount: Int { shared.withLock { $0.captured } }

  /// The middleware that publishes every input the architecture processes, with the state after
  /// it and the diff it made: put it **last** among the service's middlewares.
  ///
  /// - Parameters:
  ///   - state: The service's state type.
  ///   - kind: What the inputs are: a store's actions or events, a reactor's mutations (with their
  ///     actions), a feedback loop's events.
  ///   - encode: The input as a value to show as JSON (default: the input, if it is
  ///     `Encodable`).
  ///   - isEffectOutcome: Whether an input (with the reactor's mutation, if any) is an effect's
  ///     outcome (a write that finished, a page that arrived), rather than the user's.
  /// - Returns: The middleware, which also keeps the inputs for ``onReplay(_:)``'s closure.
  public func inputs<Input: Sendable, State: Encodable & Sendable>(
    of state: State.Type,
    kind: StepKind,
    encoding encode: @escaping @Sendable (Input) -> (any Encodable)? = { $0 as? any Encodable },
    isEffectOutcome: @escaping @Sendable (Input, (any Sendable)?) -> Bool = { _, _ in false }
  ) -> LiveInputs<Input, State> {
    let inputs = LiveInputs<Input, State>(
      inspector: self,
      kind: kind,
      encode: encode,
      isEffectOutcome: isEffectOutcome
    )
    shared.withLock { shared in
      shared.timings = inputs.timings
      if !shared.clients.isEmpty || shared.tracingAsked { inputs.timings.startTracing() }
      // Weakly: the middleware holds the endpoint, and its thread ends with it.
      shared.caughtUp = { [weak inputs] in await inputs?.published() }
    }
    return inputs
  }

  /// Times the app from now on (or from its middleware's making on, if it is not made yet), as a
  /// client's connection does, until the last client connected leaves: for a benchmark of what
  /// the timing costs (`cascade-inspector-bench live-rpg`).
  public func startTracing() {
    shared.withLock { shared in
      shared.tracingAsked = true
      shared.timings?.startTracing()
    }
  }

  /// Returns once every step the app processed so far is published: ``LiveInputs/published()``
  /// of its middleware.
  public func caughtUp() async {
    await shared.withLock { $0.caughtUp }?()
  }

  /// Publishes step `index`, the next one.
  ///
  /// `head` is its message up to its state, and `state` the state after it if it was captured.
  /// The oldest states are let go beyond ``stateBudget``.
  func publish(index: Int, head: Data, state: Data?, sequence: UInt64, name: String) {
    shared.withLock { shared in
      precondition(index == shared.steps.count, "steps are published once each, in order")
      let entry = Entry(head: head, state: state, sequence: sequence, name: name)
      shared.steps.append(entry)
      if let state {
        shared.captured += 1
        for evicted in shared.kept.keep(index, bytes: state.count, ()) {
          shared.steps[evicted.index].state = nil
        }
      }
      // Under the lock, so that a client that connects now gets every step once, in order.
      let text = WSMessage.text(String(decoding: entry.message, as: UTF8.self))
      for client in shared.clients.values { client.yield(text) }
    }
  }

  /// A new client's stream: the hello, every step so far, then each new one.
  func connect() -> (id: Int, messages: AsyncStream<WSMessage>) {
    let (stream, continuation) = AsyncStream<WSMessage>.makeStream()
    let hello = Self.json([
      "hello": ["app": app, "architecture": "\(architecture)", "command": command]
    ])
    let id = shared.withLock { shared in
      continuation.yield(.text(hello))
      for step in shared.steps {
        continuation.yield(.text(String(decoding: step.message, as: UTF8.self)))
      }
      let id = shared.nextClient
      shared.nextClient += 1
      shared.clients[id] = continuation
      // The app is timed while someone looks: the trace starts with the first client.
      shared.timings?.startTracing()
      return id
    }
    return (id, stream)
  }

  /// Ends a client's stream.
  func disconnect(_ id: Int) {
    let client = shared.withLock { shared in
      let client = shared.clients.removeValue(forKey: id)
      if shared.clients.isEmpty {
        shared.tracingAsked = false
        shared.timings?.stopTracing()
      }
      return client
    }
    client?.finish()
  }

  /// Answers a client's message: a replay request, or an error for anything else.
  func answer(_ text: String, to id: Int) async {
    let request = try? JSONDecoder().decode(Request.self, from: Data(text.utf8))
    let answer: String
    if let replay = request?.replay {
      answer = await self.replay(replay)
    } else if let trace = request?.trace {
      answer = self.trace(trace)
    } else {
      answer = Self.json([
        "error": "the endpoint understands only {\"replay\":{\"id\":K,\"steps\":N}} and "
          + "{\"trace\":{\"id\":K,\"last\":N}}"
      ])
    }
    _ = shared.withLock { $0.clients[id]?.yield(.text(answer)) }
  }

  /// The most inputs a trace covers.
  public static var traceLimit: Int { 100_000 }

  /// The trace of the last inputs: `{"traced":{"id":K},"trace":{…}}`.
  private func trace(_ request: Request.Trace) -> String {
    guard (1...Self.traceLimit).contains(request.last) else {
      return Self.json([
        "traced": [
          "id": request.id, "error": "a trace covers 1 to \(Self.traceLimit) inputs",
        ]
      ])
    }
    let (timings, names) = shared.withLock { shared in
      // The names of the last steps (a trace of the last N inputs needs no older ones).
      (
        shared.timings,
        Dictionary(
          shared.steps.suffix(request.last).map { ($0.sequence, $0.name) },
          uniquingKeysWith: { first, _ in first }
        )
      )
    }
    guard let timings else {
      return Self.json(["traced": ["id": request.id, "error": "the app is not timed"]])
    }
    // Steps the app processed but its inspection thread has not published yet have no name
    // yet: they show as `input N`.
    let process = "\(app) · \(architecture)"
    let trace = timings.trace(process: process, last: request.last) { step, _ in
      names[step.sequence]
    }
    return #"{"traced":{"id":\#(request.id)},"trace":"# + trace.json() + "}"
  }

  private func replay(_ request: Request.Replay) async -> String {
    let (replay, recorded) = shared.withLock { shared in
      (
        shared.replay,
        request.steps >= 1 && request.steps <= shared.steps.count
          ? Optional(shared.steps[request.steps - 1].state) : nil
      )
    }
    guard let replay, let recorded else {
      return Self.json([
        "replayed": [
          "id": request.id, "steps": request.steps,
          "error": "no step \(request.steps - 1) to replay to",
        ]
      ])
    }
    do {
      // Both encoded by the same encoder, keys sorted: equal states are equal bytes.
      let state = try Self.encoder.encode(try await replay(request.steps))
      var replayed: [String: Any] = ["id": request.id, "steps": request.steps]
      // Without the state recorded (not captured, or let go), the fresh service's is the answer.
      if let recorded { replayed["matches"] = state == recorded }
      var message = Data(Self.json(["replayed": replayed]).utf8).dropLast()
      // `{"replayed":{…}` + `,"state":<the state>}`
      message.append(contentsOf: Array(#","state":"#.utf8))
      message.append(state)
      message.append(UInt8(ascii: "}"))
      return String(decoding: message, as: UTF8.self)
    } catch {
      return Self.json([
        "replayed": ["id": request.id, "steps": request.steps, "error": "\(error)"]
      ])
    }
  }

  /// `value` as JSON, keys sorted, slashes as they are; `{}` if it does not encode.
  public static func encodeJSON(_ value: some Encodable) -> Data {
    (try? encoder.encode(value)) ?? Data("{}".utf8)
  }

  static let encoder = SortedJSONEncoder(escapesSlashes: false)

  /// `value` as JSON text, keys sorted.
  static func json(_ value: [String: Any]) -> String {
    let data =
      (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]))
      ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self)
  }
}

/// What a client asks: `{"replay":{"id":K,"steps":N}}` or `{"trace":{"id":K,"last":N}}`.
private struct Request: Decodable {
  struct Replay: Decodable {
    var id: Int
    var steps: Int
  }
  struct Trace: Decodable {
    var id: Int
    var last: Int
  }
  var replay: Replay?
  var trace: Trace?
}
