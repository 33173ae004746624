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
/// client that connects receives JSON texts as text messages, at the pace it reads them; steps
/// come several to a message, one per line (while the app is busy, by the hundred: a client
/// costs the app a message per batch, not per step):
///
/// - `{"hello":{"app":…,"architecture":…,"command":…,"first":K,"limit":L}}`, first, `K` the
///   first step it will be sent (0 until the endpoint lets steps go), `L` how many steps it
///   keeps (``stepLimit``);
/// - every step kept, then each new one as the app processes it: `{"step":{…},"diff":…,
///   "input":…,"state":…}`, the input with its kind and source, the change it made
///   (``JSONDiff``'s lines) and the state after it — the shape of `cascade-inspect`'s
///   `/api/step/I` answer. A step whose state was not captured (the app ran ahead of the
///   encoding: ``LiveInputs``) or is no longer kept (``stateBudget``) has `"captured":false` and
///   a `null` state; its diff, if any, starts from the step `diffFrom`.
///
/// **Memory.** It keeps the last ``stepLimit`` steps' messages (as Redux DevTools' `maxAge`
/// keeps its last actions), and their states within ``stateBudget``; older steps are let go, a
/// client that connects after gets the steps from the first kept, and one that falls further
/// behind than that skips those let go meanwhile (the indices it gets jump). "Replay to here"
/// needs the inputs: when the app's architecture can start from a state
/// (``replays(_:intoFresh:restoring:)``, as the sample apps'), the inputs of the steps let go
/// are let go too, and a replay starts from a state the inspection kept after them; otherwise
/// every input is kept (for the game, about a third of what a step took with its message). An
/// app that runs further ahead of its inspection than the limit has the steps it is ahead by
/// skipped, not published (``skippedSteps``; ``LiveInputs``).
///
/// It may send `{"replay":{"id":K,"steps":N}}`: "replay to here". The app builds a fresh service
/// and replays the inputs of the first `N` steps into it, in replay mode (the recorded states and
/// no effect: no request, no write), through the closure given to ``onReplay(_:)``; the answer
/// is `{"replayed":{"id":K,"steps":N,"matches":true|false},"state":…}`, `matches` saying whether
/// the fresh service's state is the state recorded after step `N - 1` (no `matches` when that
/// state was not captured or is no longer kept: the fresh service's state is then the step's).
/// The running app is left as it is.
///
/// It may send `{"timing":{"id":K,"on":true}}`: "time the app" (`false`: "I no longer need it");
/// the answer is `{"timed":{"id":K,"on":B}}`, `B` whether the app is timed now. The app is timed
/// only while a client connected has asked (or the app itself, ``startTracing()``): otherwise its
/// engine reads no clock for the trace, and inspection costs it what `--inspect` costs. A
/// client's ask ends when it says `false` or leaves. So a trace, like Chrome's Performance panel
/// or Redux DevTools' `trace` option, is asked for: timing each input reads the clock four
/// times, which costs a busy app about a twentieth of its throughput
/// (`cascade-inspector-bench live-rpg`).
///
/// It may send `{"trace":{"id":K,"last":N}}`: the engine's timings of the last `N` inputs (1 to
/// 100,000) and of the effects that ran meanwhile, in Chrome's trace event format (Perfetto opens
/// it: `CascadeMiddleware.ChromeTrace`), each input named as its step; the answer is
/// `{"traced":{"id":K},"trace":{…}}`: the inputs of the times the app was timed.
///
/// ```swift
/// let inspector = LiveInspector(app: "todo", architecture: .store, command: "shell")
/// let inputs = inspector.inputs(of: TodoState.self, kind: .event)  // the last middleware
/// let url = try await inspector.start(port: 0)  // ws://127.0.0.1:PORT/live?token=…
/// ```
///
/// **Security.** It listens on 127.0.0.1 only, answers only a `Host` of `127.0.0.1:PORT` or
/// `localhost:PORT` (421 otherwise), only `GET /live` with the token (403 otherwise), and the only
/// things a client can ask are a replay, which runs no effect, timing and a trace.
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
  /// The most steps whose messages are kept for clients; beyond it the oldest are let go, a
  /// sixteenth of the limit at a time.
  public let stepLimit: Int
  private let shared: LockedValue<Shared>
  private let server = LockedValue<LoopbackServer?>(nil)

  /// A client connected, which reads at its own pace: its stream takes the next message when it
  /// has sent the last (``nextMessage(for:)``), so that a slow client holds no copies of the
  /// steps, only its place in them.
  private struct Client {
    /// The hello is sent first.
    var greeted = false
    /// The next step to send.
    var next = 0
    /// The answers to its requests, sent before the next steps.
    var answers: [String] = []
    /// Where its stream waits for a step or an answer.
    var waiter: CheckedContinuation<Void, Never>?
    /// Set by ``stop()``: the steps published up to then are sent, then the stream ends.
    var endAt: Int?

    /// Takes the waiter, to resume outside the lock.
    mutating func wake() -> CheckedContinuation<Void, Never>? {
      defer { waiter = nil }
      return waiter
    }
  }

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
    /// The steps kept: from ``first`` on.
    var steps: [Entry] = []
    /// The index of the first step kept (the steps before were let go: ``stepLimit``).
    var first = 0
    /// How many steps were published or skipped.
    var count: Int { first + steps.count }
    /// How many steps were skipped (``skippedSteps``).
    var skipped = 0
    /// The steps whose states are kept.
    var kept: StateBudget<Void>
    var captured = 0
    /// Each client connected: where it is in the steps, and its answers to send.
    var clients: [Int: Client] = [:]
    var nextClient = 0
    var replay: (@Sendable (Int) async throws -> any Encodable & Sendable)?
    /// The timings of the architecture inspected (``LiveInputs/tracer``).
    var timings: TraceBuffer?
    /// Waits for the middleware's thread to publish every step processed so far.
    var caughtUp: (@Sendable () async -> Void)?
    /// Whether the app asked to be timed (``startTracing()``).
    var tracingAsked = false
    /// The clients that asked to time the app (`{"timing":{"id":K,"on":true}}`).
    var timingClients: Set<Int> = []

    /// Whether the app is timed: while it or a client connected asks.
    var timed: Bool { tracingAsked || !timingClients.isEmpty }

    /// Starts or stops the timing as ``timed`` says.
    func applyTiming() {
      if timed { timings?.startTracing() } else { timings?.stopTracing() }
    }
  }

  /// Creates an endpoint for `app` on `architecture`, running `command`; nothing is served yet.
  ///
  /// - Parameters:
  ///   - app: The app's name.
  ///   - architecture: The architecture the app's service is built on.
  ///   - command: The front's command.
  ///   - token: The secret a client must carry.
  ///   - stateBudget: The most bytes of states (as JSON) kept (``stateBudget``).
  ///   - stepLimit: The most steps kept for clients (at least 1).
  public init(
    app: String,
    architecture: Architecture,
    command: String,
    token: String = LoopbackServer.makeToken(),
    stateBudget: Int = 256 << 20,
    stepLimit: Int = LiveInspector.defaultStepLimit
  ) {
    self.stateBudget = stateBudget
    self.stepLimit = max(1, stepLimit)
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

  /// Ends every client's stream, once it has sent the steps published so far and its answers,
  /// and stops listening.
  public func stop() async {
    let waiters = shared.withLock { shared in
      let count = shared.count
      return shared.clients.keys.compactMap { id in
        shared.clients[id]?.endAt = count
        return shared.clients[id]?.wake()
      }
    }
    for waiter in waiters { waiter.resume() }
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

  /// The steps an endpoint keeps unless told otherwise: 100,000.
  public static var defaultStepLimit: Int { 100_000 }

  /// The numbers of steps an endpoint may keep: `--inspect-steps N`'s range, and the limits a
  /// client takes from a hello.
  public static let stepLimits = 1...10_000_000

  /// How many steps were published, those skipped included: the index of the next.
  public var stepCount: Int { shared.withLock { $0.count } }

  /// How many steps were skipped, not published: the app ran further ahead of its inspection
  /// than ``stepLimit`` steps.
  public var skippedSteps: Int { shared.withLock { $0.skipped } }

  /// The index of the first step kept for clients: 0 until more than ``stepLimit`` steps were
  /// published.
  public var firstKeptStep: Int { shared.withLock { $0.first } }

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
  ///   - remake: The input a value `encode` made stands for. Given, the inputs are kept for
  ///     replays in the form `encode` made of them, on the inspection's thread, and the app's
  ///     thread lets go of the inputs themselves (`MiddlewareLog.giveBack(_:)`): an input that
  ///     holds memory (the store's `any CoreEvent`) is then freed where it was allocated. By
  ///     default the inputs are kept as they are.
  ///   - isEffectOutcome: Whether an input (with the reactor's mutation, if any) is an effect's
  ///     outcome (a write that finished, a page that arrived), rather than the user's.
  /// - Returns: The middleware, which also keeps the inputs for ``onReplay(_:)``'s closure.
  public func inputs<Input: Sendable, State: Encodable & Sendable>(
    of state: State.Type,
    kind: StepKind,
    encoding encode: (@Sendable (Input) -> (any Encodable & Sendable)?)? = nil,
    remaking remake: (@Sendable (any Encodable & Sendable) -> Input?)? = nil,
    isEffectOutcome: @escaping @Sendable (Input, (any Sendable)?) -> Bool = { _, _ in false }
  ) -> LiveInputs<Input, State> {
    let inputs = LiveInputs<Input, State>(
      inspector: self,
      kind: kind,
      encode: encode,
      remake: remake,
      isEffectOutcome: isEffectOutcome
    )
    shared.withLock { shared in
      shared.timings = inputs.timings
      shared.applyTiming()
      // Weakly: the middleware holds the endpoint, and its thread ends with it.
      shared.caughtUp = { [weak inputs] in await inputs?.published() }
    }
    return inputs
  }

  /// Times the app from now on (or from its middleware's making on, if it is not made yet), as a
  /// client's `{"timing":{"id":K,"on":true}}` does, until ``stopTracing()``: for an app that
  /// wants its trace from its start, and a benchmark of what the timing costs
  /// (`cascade-inspector-bench live-rpg`).
  public func startTracing() {
    shared.withLock { shared in
      shared.tracingAsked = true
      shared.applyTiming()
    }
  }

  /// Ends ``startTracing()``'s ask: the app is timed from now on only while a client asks.
  public func stopTracing() {
    shared.withLock { shared in
      shared.tracingAsked = false
      shared.applyTiming()
    }
  }

  /// Whether the app is timed now: it or a client connected asked.
  public var isTimed: Bool { shared.withLock { $0.timed } }

  /// Returns once every step the app processed so far is published: ``LiveInputs/published()``
  /// of its middleware.
  public func caughtUp() async {
    await shared.withLock { $0.caughtUp }?()
  }

  /// Publishes step `index`, the next one.
  ///
  /// `head` is its message up to its state, and `state` the state after it if it was captured.
  /// The oldest states are let go beyond ``stateBudget``, and the oldest steps beyond
  /// ``stepLimit`` (a sixteenth of it at a time, so that the kept ones move seldom). The clients
  /// are woken once a message's worth of steps is published (``batchSteps``), and by
  /// ``wakeClients()`` at the end of a batch: woken per step, a client that keeps up sent a
  /// message, and woke a task, per step.
  func publish(index: Int, head: Data, state: Data?, sequence: UInt64, name: String) {
    let waiters = shared.withLock { shared -> [CheckedContinuation<Void, Never>] in
      precondition(index == shared.count, "steps are published once each, in order")
      let entry = Entry(head: head, state: state, sequence: sequence, name: name)
      shared.steps.append(entry)
      if let state {
        shared.captured += 1
        for evicted in shared.kept.keep(index, bytes: state.count, ())
        where evicted.index >= shared.first {
          shared.steps[evicted.index - shared.first].state = nil
        }
      }
      if shared.steps.count > stepLimit + Swift.max(1, stepLimit / 16) {
        let letGo = shared.steps.count - stepLimit
        shared.steps.removeFirst(letGo)
        shared.first += letGo
        shared.kept.forget(before: shared.first)
      }
      guard (index + 1) % Self.batchSteps == 0 else { return [] }
      return shared.clients.keys.compactMap { shared.clients[$0]?.wake() }
    }
    // Each client's stream sends it when it has sent the steps before it.
    for waiter in waiters { waiter.resume() }
  }

  /// Skips the steps up to `next`, not published.
  ///
  /// The app ran further ahead of its inspection than ``stepLimit`` steps (``LiveInputs``).
  /// The steps kept before them are let go too, so that the steps kept follow each other (a
  /// client still reading them skips them); the next step published is `next`.
  func skip(to next: Int) {
    shared.withLock { shared in
      guard next > shared.count else { return }
      shared.skipped += next - shared.count
      shared.steps.removeAll(keepingCapacity: true)
      shared.first = next
      shared.kept.forget(before: next)
    }
  }

  /// Wakes the clients waiting for steps: the publisher's batch ends.
  func wakeClients() {
    let waiters = shared.withLock { shared in
      shared.clients.keys.compactMap { shared.clients[$0]?.wake() }
    }
    for waiter in waiters { waiter.resume() }
  }

  /// A new client's stream: the hello, every step so far, then each new one, and the answers
  /// to its requests; each message made when the stream is read.
  func connect() -> (id: Int, messages: AsyncStream<WSMessage>) {
    let id = shared.withLock { shared in
      let id = shared.nextClient
      shared.nextClient += 1
      // From the first step kept: the hello says which it is.
      shared.clients[id] = Client(next: shared.first)
      return id
    }
    return (id, AsyncStream(unfolding: { [self] in await nextMessage(for: id) }))
  }

  /// Client `id`'s next message, once there is one; `nil` once it is disconnected, or stopped
  /// and every message due sent.
  private func nextMessage(for id: Int) async -> WSMessage? {
    /// What is due to the client, taken under the lock; its text is made outside it: the hello,
    /// an answer, or steps.
    struct Batch {
      /// The first step the client is sent, with the hello.
      var hello: Int?
      var answer: String?
      var steps: [Entry] = []
      var isEmpty: Bool { hello == nil && answer == nil && steps.isEmpty }
    }
    while true {
      let taken = shared.withLock { shared -> Batch? in
        guard var client = shared.clients[id] else { return nil }
        defer { shared.clients[id] = client }
        var batch = Batch()
        if !client.greeted {
          client.greeted = true
          client.next = Swift.max(client.next, shared.first)
          batch.hello = client.next
          return batch
        }
        if !client.answers.isEmpty {
          batch.answer = client.answers.removeFirst()
          return batch
        }
        let end = min(shared.count, client.endAt ?? .max)
        // The steps let go before it read them are skipped.
        client.next = Swift.max(client.next, shared.first)
        var bytes = 0
        while client.next < end, batch.steps.count < Self.batchSteps, bytes < Self.batchBytes {
          let entry = shared.steps[client.next - shared.first]
          batch.steps.append(entry)
          bytes += entry.head.count + (entry.state?.count ?? 0)
          client.next += 1
        }
        return batch.isEmpty && client.endAt != nil ? nil : batch
      }
      guard let batch = taken else { return nil }
      if let first = batch.hello {
        return .text(
          Self.json([
            "hello": [
              "app": app, "architecture": "\(architecture)", "command": command, "first": first,
              "limit": stepLimit,
            ]
          ])
        )
      }
      if let answer = batch.answer { return .text(answer) }
      guard batch.steps.isEmpty else {
        // Steps are compact JSON, without a line break: one per line.
        let lines = batch.steps.map(\.message)
        var text = Data(capacity: lines.reduce(lines.count) { $0 + $1.count })
        for (position, line) in lines.enumerated() {
          if position > 0 { text.append(UInt8(ascii: "\n")) }
          text.append(line)
        }
        return .text(String(decoding: text, as: UTF8.self))
      }
      await withCheckedContinuation { continuation in
        // Resumed at once if something came between the look and now.
        let ready = shared.withLock { shared -> Bool in
          guard let client = shared.clients[id] else { return true }
          let due =
            !client.answers.isEmpty || client.endAt != nil
            || client.next < shared.count
          if !due { shared.clients[id]?.waiter = continuation }
          return due
        }
        if ready { continuation.resume() }
      }
    }
  }

  /// The JSON texts of one of the endpoint's messages: a message of steps holds one per line
  /// (they are compact JSON); any other (the hello, an answer: a trace has line breaks) is one.
  public static func texts(of message: String) -> [Substring] {
    guard message.hasPrefix(#"{"diff":"#) else { return [message[...]] }
    // Split on the byte, in the string's bytes as a `Span`: a split on `Character` walked every
    // grapheme of every step (half of what a client did with a busy app's messages), and the
    // collection's `split` called its closure for every byte (a sixth).
    var message = message
    message.makeContiguousUTF8()
    let utf8 = message.utf8
    let bytes = utf8.span
    var texts: [Substring] = []
    var start = utf8.startIndex
    var offset = 0
    for position in 0...bytes.count where position == bytes.count || bytes[position] == 0x0A {
      let end = utf8.index(start, offsetBy: position - offset)
      if end > start { texts.append(Substring(utf8[start..<end])) }
      guard end < utf8.endIndex else { break }
      start = utf8.index(after: end)
      offset = position + 1
    }
    return texts
  }

  /// The most steps a message holds.
  static let batchSteps = 256
  /// The bytes of steps beyond which a message takes no more (a message holds at least one).
  static let batchBytes = 1 << 20

  /// Ends a client's stream.
  func disconnect(_ id: Int) {
    let waiter = shared.withLock { shared in
      let waiter = shared.clients[id]?.wake()
      shared.clients[id] = nil
      // A client that leaves no longer asks for timing.
      if shared.timingClients.remove(id) != nil { shared.applyTiming() }
      return waiter
    }
    waiter?.resume()
  }

  /// Answers a client's message: a replay, timing or trace request, or an error for anything
  /// else.
  func answer(_ text: String, to id: Int) async {
    let request = try? JSONDecoder().decode(Request.self, from: Data(text.utf8))
    let answer: String
    if let replay = request?.replay {
      answer = await self.replay(replay)
    } else if let timing = request?.timing {
      answer = self.timing(timing, client: id)
    } else if let trace = request?.trace {
      answer = self.trace(trace)
    } else {
      answer = Self.json([
        "error": "the endpoint understands only {\"replay\":{\"id\":K,\"steps\":N}}, "
          + "{\"timing\":{\"id\":K,\"on\":B}} and {\"trace\":{\"id\":K,\"last\":N}}"
      ])
    }
    let waiter = shared.withLock { shared in
      shared.clients[id]?.answers.append(answer)
      return shared.clients[id]?.wake()
    }
    waiter?.resume()
  }

  /// Starts or ends client `id`'s ask for timing: `{"timed":{"id":K,"on":B}}`, `B` whether the
  /// app is timed now.
  private func timing(_ request: Request.Timing, client id: Int) -> String {
    let timed = shared.withLock { shared in
      // A client that left meanwhile asks nothing.
      if request.on, shared.clients[id] != nil {
        shared.timingClients.insert(id)
      } else {
        shared.timingClients.remove(id)
      }
      shared.applyTiming()
      return shared.timed
    }
    return #"{"timed":{"id":\#(request.id),"on":\#(timed)}}"#
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
    // The state recorded after the step, if it is still kept: `.some(nil)` when it is not (or
    // was not captured), `nil` when there is no such step.
    let (replay, recorded) = shared.withLock { shared -> (_, Data??) in
      guard request.steps >= 1, request.steps <= shared.count else { return (shared.replay, nil) }
      let index = request.steps - 1
      return (shared.replay, index >= shared.first ? shared.steps[index - shared.first].state : nil)
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

/// What a client asks: `{"replay":{"id":K,"steps":N}}`, `{"timing":{"id":K,"on":B}}` or
/// `{"trace":{"id":K,"last":N}}`.
private struct Request: Decodable {
  struct Replay: Decodable {
    var id: Int
    var steps: Int
  }
  struct Timing: Decodable {
    var id: Int
    var on: Bool
  }
  struct Trace: Decodable {
    var id: Int
    var last: Int
  }
  var replay: Replay?
  var timing: Timing?
  var trace: Trace?
}
