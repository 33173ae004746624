public import CascadeStore
import CascadeStreams
import Synchronization

/// A `StoreTracer` that keeps the last inputs' timings and effects in memory, and makes a
/// ``ChromeTrace`` of them when asked: what ``ChromeTraceRecorder`` keeps its timings in, and what
/// a tool that names the inputs itself (an inspector) hands an architecture.
///
/// ```swift
/// let timings = TraceBuffer(capacity: 10_000)
/// // … a middleware whose `tracer` is `timings` …
/// let trace = timings.trace(process: "Todo") { step, _ in names[step.sequence] }
/// ```
///
/// **Memory.** The last `capacity` inputs' timings (64 bytes each, and 40 more each for the
/// inputs once one was given: ``traced(_:input:)``) and as many ended effects (40 bytes and the
/// effect's name each): about 10 MB at the default 100,000. Older ones are let go.
///
/// **Cost.** A lock and an append per call, on the calling thread; no allocation once full.
/// Switched off (``stopTracing()``, or `tracing: false` at its creation), it costs the
/// architecture one check per input: the engine reads no clock and hands it nothing
/// (`StoreTracer.isTracing`, CascadeStore).
public final class TraceBuffer: StoreTracer {
  private struct Kept {
    /// The timings, plain values.
    ///
    /// An append is a copy of 64 bytes. With the inputs beside them in one ring, each append
    /// assigned an optional existential through the runtime's value witnesses (half of this
    /// tracer's time on the app's thread, under `perf`).
    var steps = Ring<StepTiming>()
    /// The inputs given with the timings (``traced(_:input:)``), at the same places; made at
    /// the first one given.
    var inputs: Ring<(any Sendable)?>?
    var running: [Int: (name: String, start: UInt64)] = [:]
    var effects = Ring<(id: Int, name: String, start: UInt64, end: UInt64, cancelled: Bool)>()
  }

  /// How many inputs' timings, and apart ended effects, are kept.
  public let capacity: Int
  private let kept = LockedValue(Kept())
  private let tracing: Atomic<Bool>

  /// Keeps the last `capacity` inputs' timings and effects (at least 1), from now on if
  /// `tracing`, else from ``startTracing()`` on.
  public init(capacity: Int = 100_000, tracing: Bool = true) {
    self.capacity = max(1, capacity)
    self.tracing = Atomic(tracing)
  }

  /// Whether it keeps the timings of the inputs and effects that begin now.
  public var isTracing: Bool { tracing.load(ordering: .relaxed) }

  /// Keeps the timings of the inputs and effects that begin from now on (those kept before stay).
  public func startTracing() { tracing.store(true, ordering: .relaxed) }

  /// Keeps no more timings of the inputs and effects that begin from now on; those kept stay,
  /// and the effects already started have their ends kept.
  public func stopTracing() { tracing.store(false, ordering: .relaxed) }

  /// Keeps an input's timings (while tracing).
  public func traced(_ step: StepTiming) {
    guard isTracing else { return }
    let capacity = self.capacity
    kept.withLock { kept in
      kept.steps.append(step, capacity: capacity)
      kept.inputs?.append(nil, capacity: capacity)
    }
  }

  /// Keeps an input's timings with the input, for ``trace(process:last:name:)`` to name it
  /// (while tracing).
  public func traced(_ step: StepTiming, input: any Sendable) {
    guard isTracing else { return }
    let capacity = self.capacity
    kept.withLock { kept in
      if kept.inputs == nil { kept.inputs = Ring(repeating: nil, count: kept.steps.count) }
      kept.steps.append(step, capacity: capacity)
      kept.inputs?.append(input, capacity: capacity)
    }
  }

  /// Notes an effect's start (while tracing).
  public func effectStarted(_ effect: Int, name: String, at time: UInt64) {
    guard isTracing else { return }
    kept.withLock { $0.running[effect] = (name, time) }
  }

  /// Keeps an effect that ended, if its start was noted.
  public func effectEnded(_ effect: Int, cancelled: Bool, at time: UInt64) {
    let capacity = self.capacity
    kept.withLock { kept in
      guard let started = kept.running.removeValue(forKey: effect) else { return }
      kept.effects.append(
        (effect, started.name, started.start, time, cancelled),
        capacity: capacity
      )
    }
  }

  /// The trace of what is kept — of the `last` inputs, and the effects that ended after the
  /// first of them began — each input named by `name` from its timing and the input if it was
  /// given (`input N` where it gives `nil`); effects still running last to the trace's end.
  public func trace(
    process: String,
    last: Int = .max,
    name: (StepTiming, (any Sendable)?) -> String?
  ) -> ChromeTrace {
    // Only what the trace shows is copied, under the lock. A copy of the whole (the rings
    // shared with this call) made the architecture's next timing copy the rings, megabytes,
    // on its processing thread.
    let (steps, inputs, effects, running) = kept.withLock { kept in
      let steps = kept.steps.suffix(max(0, last))
      let inputs = kept.inputs?.suffix(max(0, last))
      let since = last < kept.steps.count ? steps.first?.received ?? 0 : 0
      return (steps, inputs, kept.effects.filter { $0.end >= since }, kept.running)
    }
    var trace = ChromeTrace(process: process)
    for (position, timing) in steps.enumerated() {
      let input = inputs?[position]
      trace.add(step: timing, name: name(timing, input) ?? "input \(timing.sequence)")
    }
    for effect in effects {
      trace.addEffect(
        id: effect.id,
        name: effect.name,
        start: effect.start,
        end: effect.end,
        cancelled: effect.cancelled
      )
    }
    for (id, effect) in running.sorted(by: { $0.value.start < $1.value.start }) {
      trace.addEffect(id: id, name: effect.name, start: effect.start, end: nil, cancelled: false)
    }
    return trace
  }
}

/// The last elements appended, up to a capacity, oldest first.
struct Ring<Element> {
  private var storage: [Element] = []
  /// Where the oldest element is, once the ring is full.
  private var head = 0

  init() {}

  /// `count` elements, each `element`: a ring given the same appends as one of `count` elements
  /// then ends with the same last ones, element for element.
  init(repeating element: Element, count: Int) {
    storage = Array(repeating: element, count: count)
  }

  /// Appends `element`, letting the oldest go beyond `capacity`.
  mutating func append(_ element: Element, capacity: Int) {
    if storage.count < capacity {
      storage.append(element)
    } else {
      storage[head] = element
      // Not `%`: a division on every append of a full ring.
      head += 1
      if head == storage.count { head = 0 }
    }
  }

  /// How many elements there are.
  var count: Int { storage.count }

  /// The last `count` elements (all, if fewer), oldest first.
  func suffix(_ count: Int) -> [Element] {
    let count = Swift.min(count, storage.count)
    var result: [Element] = []
    result.reserveCapacity(count)
    for position in (storage.count - count)..<storage.count {
      result.append(storage[(head + position) % storage.count])
    }
    return result
  }

  /// The elements that satisfy `isIncluded`, oldest first.
  func filter(_ isIncluded: (Element) -> Bool) -> [Element] {
    var result: [Element] = []
    for position in storage.indices {
      let element = storage[(head + position) % storage.count]
      if isIncluded(element) { result.append(element) }
    }
    return result
  }
}

extension Ring: Sendable where Element: Sendable {}
