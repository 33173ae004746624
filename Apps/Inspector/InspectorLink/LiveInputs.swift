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
/// **Off the app's thread.** The architecture logs each input for it, in code specialized for
/// its types, and wakes its thread once per batch (``MiddlewareHost/openLog(wake:)``); an
/// architecture that keeps no log (a custom one) has it log the input in ``process(_:)``, and
/// while its thread keeps up, hand the state over (a reference: no copy, no encoding). The
/// thread takes the inputs, names them, encodes the states and diffs them (``JSONDiff``), and
/// publishes the steps, so an app inspected live keeps its pace however large its state (`cascade-inspector-bench
/// live`). While the app is busy (inputs come while that thread works) it rests nine times as
/// long as it worked, after each batch and every 2 ms of work within one, taking at most a tenth
/// of a core from the app (and a client attached, which reads what it publishes, little more),
/// and the timeline lags; once the app rests it catches up at full speed.
///
/// A state handed over or read is shared with the app's until the thread has encoded it, so the
/// app's next change to it copies it once. To bound those copies, the states are taken as
/// follows:
///
/// - while the states are small (the last one encoded under ``smallState`` bytes of JSON), the
///   state after each of the first ``mostQueued`` inputs of a batch is taken with it (logged by
///   the architecture, ``MiddlewareLog/captureStates(next:)``, or handed over): each step of an
///   app used by hand carries its state;
/// - beyond that, or when the states are large, the app's thread copies nothing: the thread
///   reads the state itself, once per batch of inputs it takes (``MiddlewareHost/snapshot()``,
///   under the architecture's lock), for the batch's last step. At most one copy per encoding,
///   and on the app's thread no work per input beyond logging it. The steps in between carry
///   their input, no state (`"captured":false`), and the next state's diff starts from the last
///   one encoded (``StepMessage/diffFrom``); `cascade-inspect` rebuilds their states by "replay
///   to here" when asked for. The last step of a burst always has its state: the thread reads
///   it once the inputs stop.
///
/// **An app further ahead than the endpoint keeps.** While the app is busy, the steps not yet
/// published wait as inputs (in the form `encode` made: a few hundred bytes each for the game).
/// Once more than ``LiveInspector/stepLimit`` wait (with the architecture's log), publishing them
/// all would only let the oldest go: the thread skips the oldest, up to a state it holds (one is
/// captured with an input every quarter of the limit while it rests), leaving at least half the
/// limit to publish; the next step's diff starts from that state, and so does a replay
/// (``keepInputs(atLeast:)``). The endpoint's indices jump (``LiveInspector/skippedSteps``), and
/// an app that outruns its inspection for hours holds about that many inputs, not every one
/// (`cascade-inspector-bench live-rpg`, the game on a store inspected: 142 MB resident at most
/// for 100,000 intents, 206 MB for 1,600,000; 280 MB for 100,000 when every step was kept).
///
/// One architecture per middleware: the state read is the architecture's it was last attached to
/// (``attached(to:)``).
public final class LiveInputs<Input: Sendable, State: Encodable & Sendable>: Middleware, Sendable {
  /// The JSON size under which every state is kept for encoding.
  public static var smallState: Int { 64 * 1024 }
  /// The most states taken with their inputs per batch; beyond, the thread reads the state once
  /// for the batch.
  public static var mostQueued: Int { 64 }

  private let inspector: LiveInspector
  private let kind: StepKind
  /// The form of an input given to `LiveInspector.inputs(of:kind:encoding:remaking:…)`,
  /// kept for replays with ``remake``.
  private let encode: (@Sendable (Input) -> (any Encodable & Sendable)?)?
  /// The input as a value to show as JSON: its form, or by default the input if it is
  /// `Encodable`.
  private let shown: @Sendable (Input) -> (any Encodable)?
  /// The input a form `encode` made stands for; `nil` when the inputs are kept as they are.
  private let remake: (@Sendable (any Encodable & Sendable) -> Input?)?
  private let isEffectOutcome: @Sendable (Input, (any Sendable)?) -> Bool
  private let shared = LockedValue(LiveShared(mostQueued: LiveInputs.mostQueued))
  /// The inputs of the steps published, in order, for replays: the thread appends to them, and
  /// lets the oldest go once it may (``keepInputs(atLeast:)``).
  private let replayable = LockedValue(ReplayInputs())
  private let wakeup = Wakeup()
  /// The architecture, whose state the thread reads (``attached(to:)``).
  private let host = LockedValue<MiddlewareHost<Input, State>?>(nil)
  /// The architecture's log of inputs, if it keeps one (``attached(to:)``): the thread takes
  /// the inputs from it, and ``process(_:)`` has nothing to do.
  private let log = LockedValue<MiddlewareLog<Input, State>?>(nil)
  /// Whether ``log`` is open: read without the lock on every input.
  private let hasLog = Atomic<Bool>(false)
  /// The engine's timings of the architecture (``tracer``), for the endpoint's trace: kept while
  /// a client is connected (``LiveInspector``), off otherwise, when the engine reads no clock.
  let timings = TraceBuffer(tracing: false)
  /// Whether ``process(_:)`` hands its state over (``LiveShared/handsStates``): read without the
  /// lock on every input, set under it.
  private let handsStates = Atomic<Bool>(true)

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
    encode: (@Sendable (Input) -> (any Encodable & Sendable)?)?,
    remake: (@Sendable (any Encodable & Sendable) -> Input?)?,
    isEffectOutcome: @escaping @Sendable (Input, (any Sendable)?) -> Bool
  ) {
    self.inspector = inspector
    self.kind = kind
    self.encode = encode
    if let encode {
      shown = { input in encode(input).map { $0 as any Encodable } }
    } else {
      shown = { $0 as? any Encodable }
    }
    self.remake = remake
    self.isEffectOutcome = isEffectOutcome
    // A thread of its own, not a task: an app that keeps the cooperative threads busy must not
    // starve the inspection (nor the inspection the app).
    let wakeup = wakeup
    let name = Self.threadName
    let thread = Thread { [weak self] in
      // Named from within, as the thread runs: set before it started, the name did not reach the
      // system's thread (see ``threadName``).
      Thread.current.name = name
      var previous: (index: Int, state: Data)?
      var chunks: [[Logged]] = []
      var snapshot: MiddlewareSnapshot<State>?
      while wakeup.wait() {
        var caughtUp: [CheckedContinuation<Void, Never>] = []
        do {
          guard let self else { return }
          previous = self.publishHanded(
            after: previous,
            chunks: &chunks,
            snapshot: &snapshot,
            caughtUp: &caughtUp
          )
        }
        // Resumed once this thread no longer holds the middleware: a caller that waited for
        // every step (``published()``), then lets go of the app, frees the middleware there.
        for waiter in caughtUp { waiter.resume() }
      }
    }
    thread.start()
  }

  deinit {
    wakeup.end()
  }

  /// The name of the thread, as `top -H`, `perf` and a debugger show it.
  ///
  /// At most 15 bytes, all Linux keeps. It went by the name of the pool thread that made it
  /// (`oot.default-qos`, as the app's own threads): its name was set on the `Thread` before it
  /// started, which never reached the system's thread here (Linux, Swift 6.3's Foundation), and
  /// was too long ("cascade-live-inspection") for Linux to keep.
  static var threadName: String { "live-inspection" }

  /// ``timings``: the architecture times each input and effect for the endpoint's trace.
  public var tracer: (any StoreTracer)? { timings }

  /// `false`: it only observes, and the architecture skips it before each input.
  public var interceptsInputs: Bool { false }

  /// `false` once it has the architecture's log (``attached(to:)``): the architecture then
  /// skips it after each input too.
  public var processesInputs: Bool { !hasLog.load(ordering: .acquiring) }

  /// Keeps `host`, whose state the thread reads when no state was logged, opens its log of
  /// inputs, and takes the state before the first input (step -1), for the first step's diff.
  ///
  /// With the log, the app's thread does no work of this middleware's per input beyond the
  /// architecture's append: ``process(_:)`` is not called (``processesInputs``), and the thread
  /// takes the inputs in batches, with the states of the first ``mostQueued`` of each (while
  /// they are small).
  public func attached(to host: MiddlewareHost<Input, State>) {
    self.host.withLock { $0 = host }
    if let snapshot = host.snapshot() {
      let first = Handed(index: -1, state: held(snapshot.state, in: stateHolder))
      shared.withLock { $0.first = first }
    }
    let wakeup = wakeup
    let shared = shared
    let opened = host.openLog {
      shared.withLock { $0.woken = true }
      wakeup.signal()
    }
    guard let opened else { return }
    opened.captureStates(next: Self.mostQueued)
    log.withLock { $0 = opened }
    hasLog.store(true, ordering: .releasing)
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

  /// What a replay of the first `count` steps starts from, and the inputs to replay: the state
  /// after the steps whose inputs were let go (`nil`: none was, the replay starts where the app
  /// did), and the inputs of the steps after them, in order; `nil` when the state after step
  /// `count - 1` can no longer be replayed to (``firstReplayableStep``).
  public func replay(ofFirst count: Int) -> (start: State?, inputs: [Recorded])? {
    let taken = replayable.withLock { kept -> (start: (any Sendable)?, inputs: [Logged])? in
      guard count >= kept.base else { return nil }
      return (kept.start, Array(kept.inputs.prefix(count - kept.base)))
    }
    guard let taken else { return nil }
    return (
      taken.start.map { unheld($0) as State },
      taken.inputs.map { Recorded(input: input(of: $0), mutation: $0.mutation?.value) }
    )
  }

  /// The first step a replay reaches: 0 until inputs are let go (``keepInputs(atLeast:)``),
  /// then the last step let go, whose state a replay starts from.
  public var firstReplayableStep: Int { replayable.withLock { Swift.max(0, $0.base - 1) } }

  /// Lets the inputs of the oldest steps go, keeping those of at least the last `count` (and
  /// the state after the steps let go, which a replay starts from: ``replay(ofFirst:)``).
  ///
  /// For a replay that can start a fresh architecture from a state
  /// (``LiveInspector/replays(_:intoFresh:restoring:)``); by default every input is kept. The
  /// inputs are let go a quarter of `count` at a time, at a step whose state the thread holds:
  /// it keeps one state every quarter of `count` steps (shared with the app's until the app
  /// changes it).
  public func keepInputs(atLeast count: Int) {
    replayable.withLock { $0.limit = max(1, count) }
  }

  /// The input `logged` keeps: remade from its form, or as it was held.
  private func input(of logged: Logged) -> Input {
    switch logged.input {
    case .held(let held):
      // Safety of the cast: `process` logged an `Input`.
      return unheld(held)
    case .form(let form):
      // Kept as a form only with `remake`, which makes every form `encode` made an input again.
      guard let input = remake?(form) else {
        preconditionFailure("LiveInputs' remake gave no input for \(form)")
      }
      return input
    }
  }

  /// `entry`, taken from the architecture's log, as the thread keeps it: in the form `encode`
  /// makes of its input when the input can be remade from it (`remake`), judged an effect's
  /// outcome or not now; else its input held as it is.
  private func logged(_ entry: MiddlewareLogEntry<Input>) -> Logged {
    let mutation = entry.mutation.map(Holder.init)
    if remake != nil, let form = encode?(entry.input) {
      return Logged(
        input: .form(form),
        mutation: mutation,
        sequence: entry.sequence,
        isEffectOutcome: isEffectOutcome(entry.input, entry.mutation)
      )
    }
    return Logged(
      input: .held(held(entry.input, in: inputHolder)),
      mutation: mutation,
      sequence: entry.sequence
    )
  }

  /// Logs the input and, while the thread keeps up, hands the state over to it: no copy and no
  /// encoding here.
  public func process(_ record: MiddlewareRecord<Input, State>) {
    // The architecture logs the input itself.
    if hasLog.load(ordering: .relaxed) { return }
    // The record's fields read once, here: read in the closure below, each is a lookup of the
    // record's type.
    var logged: Logged? = Logged(
      input: .held(held(record.input, in: inputHolder)),
      mutation: record.mutation.map(Holder.init),
      sequence: record.sequence
    )
    let state = handsStates.load(ordering: .relaxed) ? held(record.state, in: stateHolder) : nil
    let wake = shared.withLock { shared in
      // Moved in, not copied: a copy retains what the input holds, and the original releases it.
      let wake = shared.log(logged.take()!, state: state)
      handsStates.store(shared.handsStates, ordering: .relaxed)
      return wake
    }
    if wake { wakeup.signal() }
  }

  /// The thread's work when woken: publishes the steps logged, with the states handed over and,
  /// for the last step when none was, the architecture's state read now, until no step is left;
  /// returns the last state encoded, for the next diff.
  ///
  /// `chunks` is the thread's, empty, for the app's chunks of inputs (``LiveShared/filled``);
  /// `snapshot` a state read whose input was not logged yet (the app went on), for the step it
  /// belongs to; `caughtUp` receives those waiting for ``published()`` once every step is
  /// published, for the thread to resume.
  private func publishHanded(
    after previous: (index: Int, state: Data)?,
    chunks: inout [[Logged]],
    snapshot: inout MiddlewareSnapshot<State>?,
    caughtUp: inout [CheckedContinuation<Void, Never>]
  ) -> (index: Int, state: Data)? {
    var previous = previous
    /// The state after `last`, the last step taken, which came without one: the architecture's,
    /// read now. `nil` if the app has gone on since: the state read is then kept in `snapshot`
    /// for the step it belongs to, in a later batch.
    func state(after last: Logged) -> State? {
      guard let read = host.withLock({ $0 })?.snapshot() else { return nil }
      // The architecture at rest has logged every input up to its sequence: beyond the last
      // step are only reductions this middleware does not see (a reactor's mutation merged in
      // by `transform`, without an action), unless inputs were logged since.
      // Read after the snapshot: an input the app logged since the take, and reduced into the
      // state read, woke this thread before the architecture came to rest.
      guard
        read.sequence == last.sequence
          || (read.isResting && shared.withLock { $0.total == $0.published && !$0.woken })
      else {
        if read.sequence > last.sequence { snapshot = read }
        return nil
      }
      return read.state
    }
    let log = log.withLock { $0 }
    /// Inputs taken from the log within the last batch (``appKeepsLogging()``), counted in
    /// ``LiveShared/total`` already, published in the next.
    var carried = LoggedBatch()
    /// The most steps the thread falls behind the app (with the log): beyond, it skips the
    /// oldest of those not yet published (``skip(_:from:states:carried:)``).
    let mostBehind = inspector.stepLimit
    /// How many inputs apart the states captured among those taken within a batch are, for the
    /// skips' starts: a quarter of ``mostBehind``.
    let captureSpacing = Swift.max(1, inspector.stepLimit / 4)
    /// Whether the app logged inputs since the last look, within a batch: with the log, the
    /// inputs logged since are taken now (into `carried`), so that the next look sees only newer
    /// ones; without, the count of inputs is compared with the last look's.
    var seenTotal = 0
    func appKeepsLogging() -> Bool {
      guard let log else {
        let total = shared.withLock { $0.total }
        defer { seenTotal = total }
        return total != seenTotal
      }
      let woken = shared.withLock { shared in
        defer { shared.woken = false }
        return shared.woken
      }
      guard woken else { return false }
      let more = fromLog(log.take(), of: log)
      shared.withLock { $0.total += more.inputs.count }
      carried.append(more)
      // A state among the inputs waiting, now and then, for a skip to start from: the state
      // after the next input the app logs.
      if carried.inputs.count - (carried.states.last?.offset ?? -1) > captureSpacing {
        log.captureStates(next: 1)
      }
      return !more.inputs.isEmpty
    }
    while true {
      // The thread's work, for its rests: all of it, from the take to the end of the batch.
      // (Counted from the first step, it left out the take and the inputs' conversion, and the
      // thread took 30 % of a core from a busy app, not a tenth: `live-rpg` under perf.)
      var working = ContinuousClock.now
      // The architecture's log, taken first, as the inputs the app's thread would have logged;
      // `woken` cleared before the take, so that the first input logged after it sets it again.
      // Marked encoding meanwhile: an input taken here is counted only below, and
      // `published()` must not find everything published between the two.
      if log != nil {
        shared.withLock { shared in
          shared.woken = false
          shared.encoding = true
        }
      }
      var logged = log.map { fromLog($0.take(), of: $0) }
      let carriedCount = carried.inputs.count
      if carriedCount > 0, let fresh = logged {
        // The inputs taken within the last batch first.
        carried.append(fresh)
        logged = carried
        carried = LoggedBatch()
      }
      // Under the lock, only swaps: the app's thread never waits for a copy of the inputs.
      let (from, first, taken, waiting) = shared.withLock { shared in
        if logged == nil { shared.woken = false }
        var taken = shared.handed
        shared.handed = []
        let first = shared.first
        shared.first = nil
        if let logged {
          if !logged.inputs.isEmpty { chunks.append(logged.inputs) }
          // The inputs carried are counted already.
          let base = shared.total - carriedCount
          taken = logged.states.map { Handed(index: base + $0.offset, state: $0.state) }
          shared.total = base + logged.inputs.count
        } else {
          shared.take(into: &chunks)
        }
        let from = shared.published
        shared.published = shared.total
        shared.encoding = shared.total > from
        self.handsStates.store(shared.handsStates, ordering: .relaxed)
        var waiting: [CheckedContinuation<Void, Never>] = []
        if shared.total == from {
          waiting = shared.waiters
          shared.waiters = []
        }
        return (from, first, taken, waiting)
      }
      caughtUp += waiting
      if let log {
        // The states of the first few inputs of the next batch, while they are small.
        log.captureStates(next: shared.withLock { $0.latestOnly } ? 0 : Self.mostQueued)
      }
      // As many free chunks as this batch took, made here: the app's thread then logs into
      // memory already touched.
      let made = log != nil ? 0 : shared.withLock { $0.wantsFree(afterTaking: chunks.count) }
      if made > 0 {
        let fresh = (0..<made).map { _ in LiveShared.chunk() }
        shared.withLock { $0.free.append(contentsOf: fresh) }
      }
      if let first {
        previous = (-1, encoded(first.state))
      }
      guard let last = chunks.last?.last else { return previous }
      let count = chunks.reduce(0) { $0 + $1.count }
      replayable.withLock { kept in
        for chunk in chunks { kept.inputs.append(contentsOf: chunk) }
      }
      /// Whether the states of this batch are kept as starts for replays
      /// (``keepInputs(atLeast:)``), and the index from which the next one is.
      var nextStart = replayable.withLock { $0.nextStart }
      // A state read for an earlier batch whose step is in this one (or still to come).
      let kept = snapshot
      snapshot = nil
      let read = taken.last?.index == from + count - 1 ? nil : state(after: last)
      if snapshot == nil, let kept, kept.sequence > last.sequence { snapshot = kept }
      seenTotal = from + count
      var states = taken.makeIterator()
      var next = states.next()
      var lastSize: Int?
      var index = from - 1
      /// Skips the oldest of the steps from `index + 1` on, if the app ran further ahead than
      /// ``mostBehind`` steps: whether it did.
      func skipsBehind() -> Bool {
        guard log != nil, from + count + carried.inputs.count - (index + 1) > mostBehind else {
          return false
        }
        var states = taken.filter { $0.index > index }
        if let read {
          states.append(Handed(index: from + count - 1, state: held(read, in: stateHolder)))
        }
        let unpublished = Array(chunks.joined().dropFirst(index + 1 - from))
        guard let start = skip(unpublished, from: index + 1, states: states, carried: &carried)
        else { return false }
        previous = start
        return true
      }
      var skipped = skipsBehind()
      for logged in chunks.joined() {
        if skipped { break }
        index += 1
        var state: Data?
        /// The state encoded, held, for a replay's start.
        var value: (any Sendable)?
        if let handed = next, handed.index == index {
          next = states.next()
          // Once a state proves large, only the last of those taken is encoded.
          if lastSize.map({ $0 <= Self.smallState }) ?? true || (next == nil && read == nil) {
            state = encoded(handed.state)
            lastSize = state?.count
            value = handed.state
          }
        } else if index == from + count - 1, let read {
          state = encodedState(read)
          lastSize = state?.count
          value = held(read, in: stateHolder)
        } else if let kept, kept.sequence == logged.sequence {
          state = encodedState(kept.state)
          lastSize = state?.count
          value = held(kept.state, in: stateHolder)
        }
        if let start = nextStart, index >= start, let value {
          nextStart = replayable.withLock { $0.keepStart(after: index, value) }
        }
        publish(logged, at: index, state: state, after: previous)
        if let state { previous = (index, state) }
        // A long batch (the app ran ahead: thousands of inputs) rests in slices, not only at its
        // end: taken whole, it kept this thread busy for seconds while the app went on, and a
        // client took a core from the app (`cascade-inspector-bench live-rpg`).
        if (index - from) % Self.sliceCheck == Self.sliceCheck - 1 {
          // The look (`appKeepsLogging()` takes the inputs logged since) and the clients'
          // wake-up are work too: the rest is counted after them.
          if ContinuousClock.now - working >= Self.slice, appKeepsLogging() {
            inspector.wakeClients()
            rest(after: ContinuousClock.now - working) { _ = appKeepsLogging() }
            working = ContinuousClock.now
            skipped = skipsBehind()
          }
        }
      }
      inspector.wakeClients()
      // The chunks emptied go back to the app's thread, which logs into memory already touched
      // (a chunk made afresh faults on each of its pages' first write).
      for index in chunks.indices { chunks[index].removeAll(keepingCapacity: true) }
      let appIsBusy = shared.withLock { shared in
        shared.recycle(&chunks)
        if let lastSize { shared.latestOnly = lastSize > Self.smallState }
        // Inputs came while this thread worked: the app is busy, and this thread rests nine
        // times as long as it worked, at most `mostRest`, so that it takes at most a tenth of a
        // core from a busy app; it works on at once when the app rests.
        // With the log, inputs came if it woke this thread since the take.
        // (Not the inputs carried: the app logged those before the last look.)
        let busy = log == nil ? shared.total > shared.published : shared.woken
        shared.encoding = busy
        self.handsStates.store(shared.handsStates, ordering: .relaxed)
        return busy
      }
      if appIsBusy { rest(after: ContinuousClock.now - working) { _ = appKeepsLogging() } }
    }
  }

  /// Skips the oldest steps not yet published: the app ran further ahead than the endpoint
  /// keeps steps (``LiveInspector/stepLimit``), so that publishing them would only let them go,
  /// and holding them meanwhile held memory without bound.
  ///
  /// The steps are skipped up to a state the thread holds (captured with its input, or read),
  /// the newest that leaves at least half the limit to publish: the next step's diff starts from
  /// it, and so does a replay that can start from a state (``keepInputs(atLeast:)``; otherwise
  /// the inputs skipped are kept for replays). Nothing is skipped when no state leaves that many.
  ///
  /// - Parameters:
  ///   - unpublished: The batch's inputs not yet published.
  ///   - first: The index of the first of them.
  ///   - states: The states the thread holds after some of them, by index.
  ///   - carried: The inputs taken since the batch, after it: on return, the inputs to publish
  ///     next, the batch's kept first.
  /// - Returns: The state skipped to, encoded, as the step before the next; `nil` if nothing
  ///   was skipped.
  private func skip(
    _ unpublished: [Logged],
    from first: Int,
    states: [Handed],
    carried: inout LoggedBatch
  ) -> (index: Int, state: Data)? {
    let end = first + unpublished.count
    let total = end + carried.inputs.count
    let candidates =
      states + carried.states.map { Handed(index: end + $0.offset, state: $0.state) }
    let least = Swift.max(1, inspector.stepLimit / 2)
    guard
      let start = candidates.filter({ $0.index >= first && total - ($0.index + 1) >= least })
        .max(by: { $0.index < $1.index })
    else { return nil }
    let next = start.index + 1
    // What is left to publish, with the states the thread holds for it.
    let kept =
      Array(unpublished.dropFirst(next - first))
      + carried.inputs.dropFirst(Swift.max(0, next - end))
    let skippedCarried = Array(carried.inputs.prefix(Swift.max(0, next - end)))
    carried = LoggedBatch(
      inputs: kept,
      states: candidates.filter { $0.index >= next }.map { ($0.index - next, $0.state) }
    )
    // Every input taken is counted in `total` already; the next batch starts after the start.
    shared.withLock { $0.published = next }
    replayable.withLock { replayable in
      // The batch's inputs were kept for replays when it was taken: those left to publish are
      // kept again with the next batch.
      replayable.skip(
        skippedCarried,
        droppingLast: Swift.max(0, end - next),
        to: next,
        after: start.state
      )
    }
    inspector.skip(to: next)
    return (start.index, encoded(start.state))
  }

  /// Rests nine times as long as the thread `worked`, at most ``mostRest``: the app is busy.
  ///
  /// In naps of at most ``nap``, after each of which it takes what the app logged meanwhile
  /// (`take`): with `remake`, the inputs, made forms, go back to the app at once
  /// (``MiddlewareLog/giveBack(_:)``), and the app allocates its next inputs in the memory
  /// they held, still in its processor's caches. Taken only after each rest, a busy app's
  /// inputs of up to ``mostRest`` each went to memory not touched before
  /// (`cascade-inspector-bench live-rpg`, the store inspected, three runs: the app's thread
  /// 2,525–2,641 ns an intent and up to 1,052 page faults a run before, 2,493–2,534 ns and at
  /// most 16 after; 2,210–2,230 ns plain). Each take's work lengthens the rest nine times as
  /// much, within ``mostRest``. It rests at least one nap: a batch of a few inputs, whose work
  /// was short, is not followed at once by the next, which would read the inputs the app has
  /// just allocated, while its processor still has them.
  private func rest(after worked: Duration, taking take: () -> Void) {
    let start = ContinuousClock.now
    var end = start + min(Self.mostRest, max(Self.nap, worked * 9))
    while true {
      let left = end - ContinuousClock.now
      guard left > .zero else { return }
      let nap = min(left, Self.nap)
      Thread.sleep(
        forTimeInterval: Double(nap.components.attoseconds) / 1e18
          + Double(nap.components.seconds)
      )
      let taking = ContinuousClock.now
      take()
      end = min(start + Self.mostRest, end + (ContinuousClock.now - taking) * 9)
    }
  }

  /// A batch of the architecture's log as the app's thread would have logged it: the inputs, and
  /// the states captured, by their offsets among the inputs.
  ///
  /// With `remake`, the inputs are kept in their forms, made here, and the batch goes back to
  /// the app's thread at once (``MiddlewareLog/giveBack(_:)``), which lets go of the inputs:
  /// kept until their steps were published (seconds, for a busy app, the thread resting nine
  /// times as long as it works), the inputs the app allocated (a store's boxed events) held its
  /// memory, which grew a page at a time, each a system call (`cascade-inspector-bench
  /// live-rpg`, the store: 48,000 `mprotect` calls and 64,000 page faults on the app's threads
  /// in a run, against 72 and 1,600 plain).
  private func fromLog(
    _ batch: MiddlewareLogBatch<Input, State>,
    of log: MiddlewareLog<Input, State>
  ) -> LoggedBatch {
    // Indices, not the entries' iterator: this code is compiled for any input type, and each
    // step of a generic iterator looked its type up (under perf, most of this function's time).
    let entries = batch.entries
    var inputs: [Logged] = []
    inputs.reserveCapacity(entries.count)
    for index in entries.indices {
      inputs.append(logged(entries[index]))
    }
    // Each state captured, at the offset of its input: both are in the order of the sequences.
    var states: [(offset: Int, state: any Sendable)] = []
    var offset = 0
    for captured in batch.states {
      while offset < entries.count, entries[offset].sequence < captured.sequence { offset += 1 }
      guard offset < entries.count else { break }
      if entries[offset].sequence == captured.sequence {
        states.append((offset, held(captured.state, in: stateHolder)))
      }
    }
    if remake != nil { log.giveBack(entries) }
    return LoggedBatch(inputs: inputs, states: states)
  }

  /// A state handed over, as JSON.
  private func encoded(_ state: any Sendable) -> Data {
    // Safety of the cast: `process` and `attached(to:)` handed over a `State`.
    encodedState(unheld(state))
  }

  /// A state, as JSON.
  private func encodedState(_ state: State) -> Data {
    (try? LiveInspector.encoder.encode(state)) ?? Data("null".utf8)
  }

  /// The longest rest the thread takes between two batches while the app is busy.
  static var mostRest: Duration { .milliseconds(200) }
  /// The longest the thread sleeps within a rest between two takes of the app's log.
  static var nap: Duration { .milliseconds(5) }
  /// The work after which the thread rests within a batch while the app is busy.
  static var slice: Duration { .milliseconds(2) }
  /// How many steps the thread publishes between two looks at the clock within a batch.
  static var sliceCheck: Int { 16 }

  /// Publishes step `index`: its input, and the state after it with the change since the last
  /// state encoded when it was captured.
  private func publish(
    _ logged: Logged,
    at index: Int,
    state: Data?,
    after previous: (index: Int, state: Data)?
  ) {
    let sequence = logged.sequence
    let madeMutation = logged.mutation?.value
    // The input itself, if it is held as it is (not kept as a form).
    var heldInput: Input?
    let form: (any Encodable)?
    switch logged.input {
    case .form(let made):
      form = made
    case .held(let held):
      // Safety of the cast: `process` logged an `Input`.
      let input: Input = unheld(held)
      heldInput = input
      form = shown(input)
    }
    // Each named from its encoding, not by parsing the JSON written.
    let input = form.flatMap { try? LiveInspector.encoder.encodeNamed($0) }
    let mutation = (madeMutation as? any Encodable).flatMap {
      try? LiveInspector.encoder.encodeNamed($0)
    }
    var description = input?.name ?? heldInput.map { String(describing: $0) } ?? "?"
    if let made = madeMutation {
      description += " → " + (mutation?.name ?? "\(made)")
    }
    if description.count > 240 { description = description.prefix(240) + "…" }
    var message = StepMessage(
      step: StepMessage.Step(
        index: index,
        sequence: Int(sequence),
        kind: (madeMutation == nil ? kind : .mutation).description,
        description: description,
        source: (logged.isEffectOutcome ?? heldInput.map { isEffectOutcome($0, madeMutation) }
          ?? false ? StepSource.effect : .user).rawValue
      ),
      diff: nil
    )
    if let state, let previous {
      message.diff = JSONDiff.text(from: previous.state, to: state)
      if previous.index != index - 1 { message.diffFrom = previous.index }
    }
    inspector.publish(
      index: index,
      head: message.head(input: StepMessage.payload(input: input?.json, mutation: mutation?.json)),
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

/// An input as the app's thread logs it, or as the thread keeps one taken from the
/// architecture's log.
private struct Logged: Sendable {
  /// The input: held as the app's thread logged it, or, taken from the architecture's log, the
  /// form `encode` made of it on the inspection's thread (sharing no memory the app's thread
  /// allocated, for a store's boxed events), from which `remake` makes it again.
  enum Input: Sendable {
    case held(any Sendable)
    case form(any Encodable & Sendable)
  }

  var input: Input
  /// The reactor's mutation, held: most inputs have none, and a held one is a word.
  var mutation: Holder<any Sendable>?
  var sequence: UInt64
  /// Whether the input is an effect's outcome, judged when it was made a form; `nil` for an
  /// input held, judged when its step is published.
  var isEffectOutcome: Bool?
}

/// Inputs taken from the architecture's log, and the states captured, by their offsets among the
/// inputs.
private struct LoggedBatch {
  var inputs: [Logged] = []
  var states: [(offset: Int, state: any Sendable)] = []

  /// `other`'s inputs and states after these.
  mutating func append(_ other: LoggedBatch) {
    let base = inputs.count
    inputs += other.inputs
    states += other.states.map { (base + $0.offset, $0.state) }
  }
}

/// The inputs ``LiveInputs`` keeps for replays, from step ``base`` on, and what a replay starts
/// from.
private struct ReplayInputs: Sendable {
  /// The inputs of the steps from ``base`` on.
  var inputs: [Logged] = []
  /// The first step whose input is kept.
  var base = 0
  /// The state after the steps before ``base``, held; `nil` while ``base`` is 0.
  var start: (any Sendable)?
  /// The most inputs kept beyond which the oldest are let go, if they may be.
  var limit: Int?
  /// States the thread held, each after step `index`, oldest first: where ``base`` may move to.
  var starts: [(index: Int, state: any Sendable)] = []

  /// How many steps apart the states kept are: a quarter of ``limit``.
  var spacing: Int? { limit.map { Swift.max(1, $0 / 4) } }

  /// The step from which the next state the thread holds is kept (``keepStart(after:_:)``);
  /// `nil` while the inputs may not be let go.
  var nextStart: Int? {
    guard let spacing else { return nil }
    return (starts.last?.index).map { $0 + spacing } ?? base
  }

  /// The steps before `next` were skipped, `state` the state after them: with a ``limit``, the
  /// replays start from it; without, the inputs are kept: the last `dropping` kept are let go
  /// (they come again with the next batch), and those `skipped`, not kept yet, are added.
  mutating func skip(
    _ skipped: [Logged],
    droppingLast dropping: Int,
    to next: Int,
    after state: any Sendable
  ) {
    guard limit != nil else {
      inputs.removeLast(Swift.min(dropping, inputs.count))
      inputs += skipped
      return
    }
    inputs = []
    base = next
    start = state
    starts = []
  }

  /// Keeps `state`, the state after step `index`, as a start; returns ``nextStart``.
  ///
  /// It lets the oldest inputs go if more than ``limit`` and a quarter of it are kept: those up
  /// to the newest start that leaves at least ``limit``.
  mutating func keepStart(after index: Int, _ state: any Sendable) -> Int? {
    starts.append((index, state))
    if let limit, let spacing, inputs.count > limit + spacing {
      let total = base + inputs.count
      if let newest = starts.lastIndex(where: { $0.index + 1 <= total - limit }) {
        let chosen = starts[newest]
        inputs.removeFirst(chosen.index + 1 - base)
        base = chosen.index + 1
        start = chosen.state
        starts.removeFirst(newest + 1)
      }
    }
    return nextStart
  }
}

/// A state handed over, after step `index`.
private struct Handed: Sendable {
  var index: Int
  var state: any Sendable
}

/// What the app's thread and the live middleware's thread share, under a lock.
private struct LiveShared: Sendable {
  /// The inputs processed and not yet taken by the thread (the steps from ``published`` on), in
  /// chunks of at least ``chunkSize``: those filled, oldest first, then ``pending``.
  ///
  /// In chunks, not one array: an array grown by the app's thread moved every input logged so
  /// far at each doubling, onto memory not touched before.
  var filled: [[Logged]] = []
  /// The chunk being filled.
  var pending: [Logged] = []
  /// Chunks emptied by the thread, for ``pending`` when it is full: their memory is touched.
  var free: [[Logged]] = (0..<4).map { _ in LiveShared.chunk() }
  /// How many inputs were processed.
  var total = 0
  /// How many steps the thread has taken to publish.
  var published = 0
  /// The small states handed over and not yet taken by the thread, oldest first.
  var handed: [Handed] = []
  /// The most states waiting in ``handed`` (``LiveInputs/mostQueued``).
  let mostQueued: Int
  /// The state before the first input, read for the first step's diff.
  var first: Handed?
  /// Whether the thread is encoding (then the app's thread hands no state over).
  var encoding = false
  /// Whether the thread was woken and has not yet looked.
  var woken = false
  /// Whether the last state encoded was large: the thread reads the latest only.
  var latestOnly = false
  /// Those waiting for every step recorded to be published.
  var waiters: [CheckedContinuation<Void, Never>] = []

  /// Whether ``LiveInputs/process(_:)`` hands over the state after its input: while the states
  /// are small and fewer than ``mostQueued`` wait (each step of an app used by hand has its
  /// state; a busy app hands over the first few of each batch).
  var handsStates: Bool { !latestOnly && handed.count < mostQueued }

  /// Logs an input and the state after it, if it was handed over; returns whether the thread
  /// is to be woken.
  mutating func log(_ logged: consuming Logged, state: (any Sendable)?) -> Bool {
    if pending.count == pending.capacity { nextChunk() }
    pending.append(logged)
    total += 1
    // The flag the state was handed over by may be stale: checked again here.
    if let state, handsStates {
      handed.append(Handed(index: total - 1, state: state))
    }
    guard !encoding, !woken else { return false }
    woken = true
    return true
  }
}

extension LiveShared {
  /// The inputs a chunk holds at least.
  static var chunkSize: Int { 1_024 }
  /// The most chunks kept in ``free``.
  static var mostFree: Int { 64 }

  /// An empty chunk with room for ``chunkSize`` inputs, its memory touched.
  static func chunk() -> [Logged] {
    var chunk = Array(
      repeating: Logged(input: .held(0), mutation: nil, sequence: 0),
      count: chunkSize
    )
    chunk.removeAll(keepingCapacity: true)
    return chunk
  }

  /// ``pending`` is full: it joins ``filled``, and a free chunk takes its place (a new one, with
  /// room but not touched, if the thread has not made enough).
  mutating func nextChunk() {
    var next = free.popLast() ?? []
    if next.capacity == 0 { next.reserveCapacity(Self.chunkSize) }
    swap(&next, &pending)
    if !next.isEmpty { filled.append(next) }
  }

  /// Moves the inputs not yet taken into `chunks` (empty): the chunks filled, then the one being
  /// filled, for which a free chunk is put in place.
  mutating func take(into chunks: inout [[Logged]]) {
    swap(&chunks, &filled)
    guard !pending.isEmpty else { return }
    var next = free.popLast() ?? []
    swap(&next, &pending)
    chunks.append(next)
  }

  /// How many free chunks the thread makes ahead, after taking `taken`: as many as it took, at
  /// least four, at most ``mostFree``.
  func wantsFree(afterTaking taken: Int) -> Int {
    min(Self.mostFree, max(4, taken)) - free.count
  }

  /// Takes back the emptied `chunks` the app's thread logs into (up to ``mostFree`` free),
  /// leaving `chunks` empty.
  ///
  /// Only chunks of a chunk's room: the arrays of inputs taken from the architecture's log
  /// (a batch each, as long as the app ran ahead) are let go. Kept, 64 of them held the room of
  /// the 64 longest batches, growing with how far the app ever ran ahead
  /// (`cascade-inspector-bench live-rpg`: 275 MB held after 800,000 intents).
  mutating func recycle(_ chunks: inout [[Logged]]) {
    let room = chunks.filter { $0.capacity <= 2 * Self.chunkSize }
    free.append(contentsOf: room.prefix(max(0, Self.mostFree - free.count)))
    chunks.removeAll(keepingCapacity: true)
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

    /// The step `json` holds (its `Codable` form), `nil` if it holds none.
    ///
    /// Read directly when its numbers are plain integers (as the endpoint writes every step),
    /// else by `JSONDecoder` — a client reads every step of a busy app, and the decoder was a
    /// third of its time. Strings with escapes are read directly too: an input's name quotes its
    /// payload's strings (`monsterAppeared({name: "Goblin", …})`), and the game's steps sent to
    /// the decoder for their `\"` were a quarter of a client's processor time
    /// (`cascade-inspector-bench live-rpg`, the store with a client attached, under `perf`).
    public static func decoded(from json: Data) -> Step? {
      quickly(json) ?? (try? JSONDecoder().decode(Step.self, from: json))
    }

    /// The step, read without a decoder; `nil` when it needs one (or is not a step).
    private static func quickly(_ json: Data) -> Step? {
      guard let members = JSONDiff.topLevelMembers(of: json) else { return nil }
      var index: Int?
      var sequence: Int?
      var kind: String?
      var description: String?
      var source: String?
      var skipped: Bool?
      for member in members {
        let value = json[
          (json.startIndex + member.value.lowerBound)..<(json.startIndex + member.value.upperBound)
        ]
        switch member.key {
        case "index": index = integer(value)
        case "sequence": sequence = integer(value)
        case "kind": kind = string(value)
        case "description": description = string(value)
        case "source": source = string(value)
        case "skipped":
          switch String(decoding: value, as: UTF8.self) {
          case "true": skipped = true
          case "false": skipped = false
          case "null": skipped = nil
          default: return nil
          }
        default: continue
        }
      }
      guard let index, let sequence, let kind, let description, let source else { return nil }
      var step = Step(
        index: index,
        sequence: sequence,
        kind: kind,
        description: description,
        source: source
      )
      step.skipped = skipped
      return step
    }

    /// A JSON integer of at most 18 digits (no sign, fraction or exponent needed by a step).
    private static func integer(_ bytes: Data) -> Int? {
      let span = bytes.span
      let negative = span.count > 0 && span[0] == UInt8(ascii: "-")
      let first = negative ? 1 : 0
      guard (1...18).contains(span.count - first) else { return nil }
      var value = 0
      for position in first..<span.count {
        let byte = span[position]
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return negative ? -value : value
    }

    /// A JSON string's text; `nil` for any other value, and for a string the decoder refuses
    /// (a control character, an unknown escape, a lone surrogate), which it is then left to.
    private static func string(_ bytes: Data) -> String? {
      let span = bytes.span
      let end = span.count - 1
      guard end >= 1, span[0] == UInt8(ascii: "\""), span[end] == UInt8(ascii: "\"") else {
        return nil
      }
      var plain = true
      for position in 1..<end where span[position] == UInt8(ascii: "\\") || span[position] < 0x20 {
        plain = false
        break
      }
      guard !plain else { return String(decoding: bytes.dropFirst().dropLast(), as: UTF8.self) }
      var text: [UInt8] = []
      text.reserveCapacity(end)
      var position = 1
      while position < end {
        let byte = span[position]
        position += 1
        guard byte >= 0x20 else { return nil }
        guard byte == UInt8(ascii: "\\") else {
          text.append(byte)
          continue
        }
        guard position < end else { return nil }
        let escaped = span[position]
        position += 1
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
          guard var value = hexadecimal(span, at: position, end: end) else { return nil }
          position += 4
          if (0xD800..<0xDC00).contains(value) {
            // A high surrogate: its low one must follow, as `\uDC00`–`\uDFFF`.
            guard end - position >= 6, span[position] == UInt8(ascii: "\\"),
              span[position + 1] == UInt8(ascii: "u"),
              let low = hexadecimal(span, at: position + 2, end: end),
              (0xDC00..<0xE000).contains(low)
            else { return nil }
            position += 6
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
          }
          guard let scalar = Unicode.Scalar(value) else { return nil }
          UTF8.encode(scalar) { text.append($0) }
        default: return nil
        }
      }
      return String(decoding: text, as: UTF8.self)
    }

    /// The value of the four hexadecimal digits at `position` in `span`, before `end`; `nil`
    /// if there are not four.
    private static func hexadecimal(_ span: Span<UInt8>, at position: Int, end: Int) -> UInt32? {
      guard end - position >= 4 else { return nil }
      var value: UInt32 = 0
      for offset in position..<(position + 4) {
        let byte = span[offset]
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
        default: return nil
        }
        value = value << 4 | UInt32(digit)
      }
      return value
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
