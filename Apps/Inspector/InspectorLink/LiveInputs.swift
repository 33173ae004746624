import CascadeMiddleware
public import CascadeStore
import CascadeStreams
public import Foundation
import Synchronization

/// The middleware of a ``LiveInspector``: it publishes every input the architecture processes,
/// with the state after it and the change it made, and keeps the inputs for "replay to here".
///
/// It only observes (it never blocks or changes an input), and it costs nothing unless the app
/// was started with `--inspect`: the app adds it only then.
///
/// **Off the app's thread.** On the thread that processes inputs it only logs the input and
/// hands the state over (a reference: no copy, no encoding). A thread of its own names the
/// inputs, encodes the states and diffs them (``JSONDiff``), and publishes the steps, so an app
/// inspected live keeps its pace however large its state (`cascade-inspector-bench live`).
/// While the app is busy (inputs come while that thread works) it rests nine times as long as it
/// worked, taking at most a tenth of a core from the app, and the timeline lags; once the app
/// rests it catches up at full speed.
///
/// A state handed over is shared with the app's until the thread has encoded it, so the app's
/// next change to it copies it once. To bound those copies, the states are kept as follows:
///
/// - up to ``mostQueued`` waiting, while the states are small (the last one encoded under
///   ``smallState`` bytes of JSON): each step of an app used by hand carries its state;
/// - beyond that, or when the states are large, only the latest, in a slot that is emptied
///   before the next input is reduced while the thread is busy: at most one copy per encoding.
///   The steps in between carry their input, no state (`"captured":false`), and the next
///   state's diff starts from the last one encoded (``StepMessage/diffFrom``);
///   `cascade-inspect` rebuilds their states by "replay to here" when asked for. The last step
///   of a burst always has its state: the slot is not emptied once the inputs stop.
public final class LiveInputs<Input: Sendable, State: Encodable & Sendable>: Middleware, Sendable {
  /// The JSON size under which every state is kept for encoding.
  public static var smallState: Int { 64 * 1024 }
  /// The most states waiting in order to be encoded; beyond, the latest waits in a slot.
  public static var mostQueued: Int { 64 }

  private let inspector: LiveInspector
  private let kind: StepKind
  private let encode: @Sendable (Input) -> (any Encodable)?
  private let isEffectOutcome: @Sendable (Input, (any Sendable)?) -> Bool
  private let shared = LockedValue(LiveShared())
  /// The inputs of the steps published, in order (for replays); the thread appends to it.
  private let publishedInputs = LockedValue<[Logged]>([])
  private let wakeup = Wakeup()
  /// The engine's timings of the architecture (``tracer``), for the endpoint's trace: kept while
  /// a client is connected (``LiveInspector``), off otherwise, when the engine reads no clock.
  let timings = TraceBuffer(tracing: false)
  /// Whether ``intercept(_:state:)`` has work.
  ///
  /// It has when the first state is to be handed over, or a large state let go while the
  /// thread encodes. Read without the lock on every input.
  private let interceptWork = Atomic<Bool>(true)

  /// The classes that hold an input or a state too large for an existential's inline buffer,
  /// looked up once, here: ``held(_:in:)`` makes one through the metatype, with no lookup of its
  /// type (boxing it as `any Sendable` looked up the box's type each time).
  private let inputHolder = Holder<Input>.self
  private let stateHolder = Holder<State>.self

  /// `value` as `any Sendable` for the thread: inline if it fits in the existential's three
  /// words, else in a `Holder` made through `holder`.
  private func held<Value: Sendable>(_ value: Value, in holder: Holder<Value>.Type) -> any Sendable
  {
    guard MemoryLayout<Value>.size > MemoryLayout<(Int, Int, Int)>.size else { return value }
    // As a `Held`, whose type is not generic: made `any Sendable` as a `Holder<Value>`, the
    // holder's type would be looked up.
    let boxed: Held = holder.init(value)
    return boxed
  }

  /// A value ``held(_:in:)`` gave.
  private func unheld<Value: Sendable>(_ held: any Sendable) -> Value {
    if let holder = held as? Holder<Value> { return holder.value }
    // Safety of the cast: `held` was given a `Value`.
    return held as! Value
  }

  /// An input as it was processed: the reactor's mutation with its action.
  public struct Recorded: Sendable {
    /// The input.
    public var input: Input
    /// The reactor's mutation, if the architecture has mutations.
    public var mutation: (any Sendable)?
  }

  init(
    inspector: LiveInspector,
    kind: StepKind,
    encode: @escaping @Sendable (Input) -> (any Encodable)?,
    isEffectOutcome: @escaping @Sendable (Input, (any Sendable)?) -> Bool
  ) {
    self.inspector = inspector
    self.kind = kind
    self.encode = encode
    self.isEffectOutcome = isEffectOutcome
    // A thread of its own, not a task: an app that keeps the cooperative threads busy must not
    // starve the inspection (nor the inspection the app).
    let wakeup = wakeup
    let thread = Thread { [weak self] in
      var previous: (index: Int, state: Data)?
      var carry: [Logged] = []
      // The last batch's storage, emptied, for the app's thread to log into next: a log grown
      // afresh from nothing each batch touched new memory (page faults on the app's thread).
      var spare: [Logged] = []
      while wakeup.wait() {
        guard let self else { return }
        previous = self.publishHanded(after: previous, carrying: &carry, spare: &spare)
      }
    }
    thread.name = "cascade-live-inspection"
    thread.start()
  }

  deinit {
    wakeup.end()
  }

  /// ``timings``: the architecture times each input and effect for the endpoint's trace.
  public var tracer: (any StoreTracer)? { timings }

  /// Lets go of a large state handed over while the thread is encoding.
  ///
  /// It runs before the input is reduced, so that the reduce does not copy that state. Before
  /// the first input, it hands the state over (step -1), for the first step's diff.
  public func intercept(_ input: Input, state: State) -> Input? {
    guard interceptWork.load(ordering: .relaxed) else { return input }
    shared.withLock { shared in
      if shared.wantsFirst {
        shared.wantsFirst = false
        shared.first = Handed(index: -1, state: held(state, in: stateHolder))
      } else if shared.encoding {
        shared.latest = nil
      }
      interceptWork.store(shared.interceptWork, ordering: .relaxed)
    }
    return input
  }

  /// Returns once every step processed so far is published (the thread has caught up with the
  /// app).
  public func published() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let now = shared.withLock { shared -> Bool in
        guard shared.published < shared.total || shared.encoding || shared.woken else {
          return true
        }
        shared.waiters.append(continuation)
        return false
      }
      if now { continuation.resume() }
    }
  }

  /// The inputs of the first `count` steps, in order.
  public func inputs(ofFirst count: Int) -> [Recorded] {
    publishedInputs.withLock { Array($0.prefix(count)) }.map { logged in
      // Safety of the cast: `process` logged an `Input`.
      Recorded(input: unheld(logged.input), mutation: logged.mutation)
    }
  }

  /// Records the input and hands the state over to the thread: no copy and no encoding here.
  public func process(_ record: MiddlewareRecord<Input, State>) {
    // The record's fields read once, here: read in the closure below, each is a lookup of the
    // record's type.
    let logged = Logged(
      input: held(record.input, in: inputHolder),
      mutation: record.mutation,
      sequence: record.sequence
    )
    let state = held(record.state, in: stateHolder)
    let mostQueued = Self.mostQueued
    let wake = shared.withLock { shared in
      let wake = shared.log(logged, state: state, mostQueued: mostQueued)
      if shared.interceptWork { interceptWork.store(true, ordering: .relaxed) }
      return wake
    }
    if wake { wakeup.signal() }
  }

  /// The thread's work when woken: publishes the steps up to the states handed over, with them,
  /// until none is left; returns the last state encoded, for the next diff.
  ///
  /// `spare` is an empty log with room, swapped for the app's.
  private func publishHanded(
    after previous: (index: Int, state: Data)?,
    carrying carry: inout [Logged],
    spare: inout [Logged]
  ) -> (index: Int, state: Data)? {
    var previous = previous
    while true {
      // Under the lock, only swaps: the app's thread never waits for a copy of the inputs.
      let (from, first, taken, batch, upTo, caughtUp) = shared.withLock { shared in
        shared.woken = false
        var taken = shared.handed
        shared.handed = []
        if let latest = shared.latest {
          // The small states waiting were handed over before the states grew large.
          taken.append(latest)
          shared.latest = nil
        }
        let first = shared.first
        shared.first = nil
        var batch = spare
        swap(&batch, &shared.pending)
        let upTo = max(shared.published, taken.last.map { $0.index + 1 } ?? shared.total)
        let from = shared.published
        shared.published = upTo
        shared.encoding = upTo > from
        self.interceptWork.store(shared.interceptWork, ordering: .relaxed)
        var caughtUp: [CheckedContinuation<Void, Never>] = []
        if upTo == from {
          caughtUp = shared.waiters
          shared.waiters = []
        }
        return (from, first, taken, batch, upTo, caughtUp)
      }
      for waiter in caughtUp { waiter.resume() }
      // `carry` holds the steps from `from` on that were taken and not yet published.
      carry.append(contentsOf: batch)
      let logged = batch.count
      spare = consume batch
      spare.removeAll(keepingCapacity: true)
      let room = max(4_096, 2 * logged)
      if spare.capacity < room {
        // Room for twice this batch, its memory touched here: the app's thread then logs into
        // pages already mapped (a large array is mapped afresh, and each page faults on its
        // first write).
        spare = Array(repeating: Logged(input: 0, mutation: nil, sequence: 0), count: room)
        spare.removeAll(keepingCapacity: true)
      }
      let steps = Array(carry.prefix(upTo - from))
      carry.removeFirst(steps.count)
      publishedInputs.withLock { $0.append(contentsOf: steps) }
      if let first {
        previous = (-1, encoded(first.state))
      }
      var states = taken.makeIterator()
      var next = states.next()
      if steps.isEmpty { return previous }
      let working = ContinuousClock.now
      var lastSize: Int?
      for (offset, logged) in steps.enumerated() {
        let index = from + offset
        var state: Data?
        if let handed = next, handed.index == index {
          next = states.next()
          // Once a state proves large, only the last of those taken is encoded.
          if lastSize.map({ $0 <= Self.smallState }) ?? true || next == nil {
            state = encoded(handed.state)
            lastSize = state?.count
          }
        }
        // Safety of the cast: `process` logged an `Input`.
        let recorded = Recorded(input: unheld(logged.input), mutation: logged.mutation)
        publish(recorded, sequence: logged.sequence, at: index, state: state, after: previous)
        if let state { previous = (index, state) }
      }
      let appIsBusy = shared.withLock { shared in
        if let lastSize { shared.latestOnly = lastSize > Self.smallState }
        // Inputs came while this thread worked: the app is busy, and this thread (still busy
        // for `intercept`) rests nine times as long as it worked, at most `mostRest`, so that it
        // takes at most a tenth of a core from a busy app; it works on at once when the app
        // rests.
        let busy = shared.total > shared.published
        shared.encoding = busy
        self.interceptWork.store(shared.interceptWork, ordering: .relaxed)
        return busy
      }
      if appIsBusy {
        let rest = min(Self.mostRest, (ContinuousClock.now - working) * 9)
        Thread.sleep(
          forTimeInterval: Double(rest.components.attoseconds) / 1e18
            + Double(rest.components.seconds)
        )
      }
    }
  }

  /// A state handed over, as JSON.
  private func encoded(_ state: any Sendable) -> Data {
    // Safety of the cast: `process` and `intercept` handed over a `State`.
    (try? LiveInspector.encoder.encode(unheld(state) as State)) ?? Data("null".utf8)
  }

  /// The longest rest the thread takes between two batches while the app is busy.
  static var mostRest: Duration { .milliseconds(200) }

  /// Publishes step `index`: its input, and the state after it with the change since the last
  /// state encoded when it was captured.
  private func publish(
    _ recorded: Recorded,
    sequence: UInt64,
    at index: Int,
    state: Data?,
    after previous: (index: Int, state: Data)?
  ) {
    let input = encode(recorded.input).flatMap { try? LiveInspector.encoder.encode($0) }
    let mutation = (recorded.mutation as? any Encodable).flatMap {
      try? LiveInspector.encoder.encode($0)
    }
    var description =
      input.flatMap { InputName.name(ofJSON: $0) } ?? String(describing: recorded.input)
    if let made = recorded.mutation {
      description += " → " + (mutation.flatMap { InputName.name(ofJSON: $0) } ?? "\(made)")
    }
    if description.count > 240 { description = description.prefix(240) + "…" }
    var message = StepMessage(
      step: StepMessage.Step(
        index: index,
        sequence: Int(sequence),
        kind: (recorded.mutation == nil ? kind : .mutation).description,
        description: description,
        source: (isEffectOutcome(recorded.input, recorded.mutation) ? StepSource.effect : .user)
          .rawValue
      ),
      diff: nil
    )
    if let state, let previous {
      message.diff = JSONDiff.text(from: previous.state, to: state)
      if previous.index != index - 1 { message.diffFrom = previous.index }
    }
    inspector.publish(
      index: index,
      head: message.head(input: StepMessage.payload(input: input, mutation: mutation)),
      state: state,
      sequence: sequence,
      name: description
    )
  }
}

// The app's side of the live middleware, in types of their own and not nested in the generic
// class: `LiveInputs` is reached through `any Middleware`, so its code runs unspecialized, and
// every value of a type that depends on `Input` or `State` (a struct holding a state, an array or
// an optional of one) costs a lookup of that type's metadata in the runtime's tables each time it
// is made, copied or destroyed — most of what inspection cost the app per input
// (`cascade-inspector-bench live-rpg`, under perf). Here the input and the state are held as
// `any Sendable` (one larger than three words in a `Holder`: an allocation, without a lookup),
// so the bookkeeping is ordinary specialized code.

/// An input as the app's thread logs it.
private struct Logged: Sendable {
  var input: any Sendable
  var mutation: (any Sendable)?
  var sequence: UInt64
}

/// A state handed over, after step `index`.
private struct Handed: Sendable {
  var index: Int
  var state: any Sendable
}

/// What the app's thread and the live middleware's thread share, under a lock.
private struct LiveShared: Sendable {
  /// The inputs processed and not yet taken by the thread (the steps from `taken` on).
  var pending: [Logged] = []
  /// How many inputs were processed.
  var total = 0
  /// How many steps the thread has taken to publish.
  var published = 0
  /// The small states handed over and not yet taken by the thread, oldest first.
  var handed: [Handed] = []
  /// The large state handed over and not yet taken: only the latest is kept (a slot, not an
  /// array, for the app's thread: no array operation per input).
  var latest: Handed?
  /// The state before the first input, handed over for the first step's diff.
  var first: Handed?
  /// Whether the thread is encoding (then a large state handed over is let go at the next
  /// input).
  var encoding = false
  /// Whether the thread was woken and has not yet looked.
  var woken = false
  /// Whether the last state encoded was large: keep only the latest.
  var latestOnly = false
  /// Whether the state before the first input is still to be handed over, for its diff.
  var wantsFirst = true
  /// Those waiting for every step recorded to be published.
  var waiters: [CheckedContinuation<Void, Never>] = []

  /// Whether ``LiveInputs/intercept(_:state:)`` has work.
  var interceptWork: Bool { wantsFirst || (encoding && latest != nil) }

  /// Logs an input and the state after it; returns whether the thread is to be woken.
  mutating func log(_ logged: Logged, state: any Sendable, mostQueued: Int) -> Bool {
    pending.append(logged)
    total += 1
    // A small state waits with the others, up to `mostQueued`; beyond, or when the states
    // are large, it replaces the one in the slot, which `intercept` empties while the thread
    // is busy.
    let handed = Handed(index: total - 1, state: state)
    if !latestOnly, self.handed.count < mostQueued {
      self.handed.append(handed)
    } else {
      latest = handed
    }
    guard !encoding, !woken else { return false }
    woken = true
    return true
  }
}

/// A value held for ``LiveInputs``' thread (see `held(_:in:)`), of any type.
private class Held: @unchecked Sendable {
  // Safety: no stored property; `Holder`'s is a `let` of a `Sendable` type.
}

/// A value held for ``LiveInputs``' thread.
private final class Holder<Value: Sendable>: Held, @unchecked Sendable {
  // Safety: its only stored property is a `let` of a `Sendable` type, set once in `init`; the
  // conformance is restated because `Held`'s is unchecked (LiveInspectorConcurrencyTests, under
  // TSan, hands states held in it from four threads to the inspection thread).
  let value: Value

  required init(_ value: Value) {
    self.value = value
  }
}

/// How ``LiveInputs``' thread is woken: a condition (pthread-based, which ThreadSanitizer sees),
/// waited on by that thread only, never by a task.
private final class Wakeup: @unchecked Sendable {
  // Safety: `signalled` and `ended` are only read and written while `condition` is locked.
  private let condition = NSCondition()
  private var signalled = false
  private var ended = false

  /// Wakes the thread.
  func signal() {
    condition.lock()
    signalled = true
    condition.signal()
    condition.unlock()
  }

  /// Ends the thread's loop.
  func end() {
    condition.lock()
    ended = true
    condition.signal()
    condition.unlock()
  }

  /// Waits to be woken; `false` once ended.
  func wait() -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while !signalled, !ended { condition.wait() }
    signalled = false
    return !ended
  }
}

/// A step's message (and `cascade-inspect`'s `/api/step/I` answer), without the state, which is
/// spliced in as it was encoded: `{"diff":…,"step":{…},"state":…}`.
public struct StepMessage: Encodable, Sendable {
  /// A step as the timeline shows it.
  public struct Step: Codable, Sendable {
    /// Its position in the timeline, from 0.
    public var index: Int
    /// Its record's sequence number (the architecture's input count, from 1).
    public var sequence: Int
    /// Its ``StepKind``'s name.
    public var kind: String
    /// The input's name (``InputName``: `intent(attack)`, and `action → mutation` for a
    /// reactor's mutation), at most 240 characters.
    public var description: String
    /// Its ``StepSource``'s name.
    public var source: String
    /// `true` when the inspector skips it (its states after are computed without it).
    public var skipped: Bool?

    /// Creates a step.
    public init(index: Int, sequence: Int, kind: String, description: String, source: String) {
      self.index = index
      self.sequence = sequence
      self.kind = kind
      self.description = description
      self.source = source
    }
  }

  /// The step.
  public var step: Step
  /// The change the step made: ``JSONDiff``'s lines from the state before it to the state after
  /// it; `nil` when it changed nothing.
  public var diff: String?
  /// The step whose state ``diff`` starts from, when it is not the step before: the live
  /// endpoint diffs the states it encoded, and the states between were not captured.
  public var diffFrom: Int?

  /// Creates a message.
  public init(step: Step, diff: String?, diffFrom: Int? = nil) {
    self.step = step
    self.diff = diff
    self.diffFrom = diffFrom
  }

  /// The message with `state` and the step's `input` (already encoded JSON) spliced in:
  /// `{"diff":…,"step":…,"input":…,"state":…}`, without `input` when it is `nil`.
  public func encoded(withState state: Data, input: Data? = nil) -> Data {
    var message = head(input: input)
    message.append(contentsOf: Array(#","state":"#.utf8))
    message.append(state)
    message.append(UInt8(ascii: "}"))
    return message
  }

  /// The message up to its state: `{"diff":…,"step":…` and `,"input":<the input>` when there is
  /// one; the state and the closing brace are the sender's to add.
  public func head(input: Data?) -> Data {
    var message = LiveInspector.encodeJSON(self).dropLast()
    if let input {
      message.append(contentsOf: Array(#","input":"#.utf8))
      message.append(input)
    }
    return Data(message)
  }

  /// The `input` of a step's message, as JSON: the input's, or for a reactor's mutation
  /// `{"action":…,"mutation":…}`; `nil` without an input.
  public static func payload(input: Data?, mutation: Data?) -> Data? {
    guard let mutation else { return input }
    var payload = Data(#"{"action":"#.utf8)
    payload.append(input ?? Data("null".utf8))
    payload.append(contentsOf: Array(#","mutation":"#.utf8))
    payload.append(mutation)
    payload.append(UInt8(ascii: "}"))
    return payload
  }

  private enum CodingKeys: String, CodingKey { case step, diff, diffFrom }

  /// Encodes the step and the diff (`null` when the step changed nothing), and where the diff
  /// starts when it is not the step before.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(step, forKey: .step)
    try container.encode(diff, forKey: .diff)  // null when the step changed nothing
    try container.encodeIfPresent(diffFrom, forKey: .diffFrom)
  }
}
