public import CascadeStore
import CascadeStreams
public import Foundation

/// A middleware that times what its architecture does — each input's interception, reduction,
/// processing by the middlewares and delivery to subscribers, each effect from start to end — and
/// writes it as a trace that Perfetto opens (``ChromeTrace``).
///
/// ```swift
/// let trace = ChromeTraceRecorder<Action, AppState>(process: "Todo")
/// let store = Store(initialState: AppState(), middlewares: [trace], reducer: reduce)
/// store.send(.add("Milk"))
/// try trace.write(to: URL(fileURLWithPath: "todo.trace.json"))  // open in ui.perfetto.dev
/// ```
///
/// Where it sits among the middlewares does not matter: the engine times all their interceptions
/// as one phase and all their processing as another, its own included.
///
/// **Memory.** The last `capacity` inputs (100,000 by default) and effects: each input's
/// timings (64 bytes) and the input itself, which is described (`String(describing:)`) only when
/// the trace is written. Older ones are let go.
///
/// **Cost.** Six clock reads and a lock per input, on the processing thread; the trace is
/// written by ``json()`` or ``write(to:)``, off the architecture's path.
public final class ChromeTraceRecorder<Input: Sendable, State: Sendable>: Middleware, StoreTracer {
  private struct Kept {
    var inputs = Ring<(sequence: UInt64, input: Input)>()
    var steps = Ring<StepTiming>()
    var running: [Int: (name: String, start: UInt64)] = [:]
    var effects = Ring<(id: Int, name: String, start: UInt64, end: UInt64, cancelled: Bool)>()
  }

  /// The process's name in the trace viewer.
  public let process: String
  /// How many inputs (and, apart, ended effects) are kept.
  public let capacity: Int
  private let kept: LockedValue<Kept>

  /// Creates a recorder keeping the last `capacity` inputs and effects (at least 1).
  public init(process: String = "Cascade", capacity: Int = 100_000) {
    self.process = process
    self.capacity = max(1, capacity)
    kept = LockedValue(Kept())
  }

  /// Itself: the architecture hands it its timings.
  public var tracer: (any StoreTracer)? { self }

  /// `false`: it only observes.
  public var interceptsInputs: Bool { false }

  /// Keeps the input, to name its step.
  public func process(_ record: MiddlewareRecord<Input, State>) {
    let capacity = self.capacity
    kept.withLock { $0.inputs.append((record.sequence, record.input), capacity: capacity) }
  }

  /// Keeps one input's timings.
  public func traced(_ step: StepTiming) {
    let capacity = self.capacity
    kept.withLock { $0.steps.append(step, capacity: capacity) }
  }

  /// Notes an effect's start.
  public func effectStarted(_ effect: Int, name: String, at time: UInt64) {
    kept.withLock { $0.running[effect] = (name, time) }
  }

  /// Keeps an effect that ended.
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

  /// The trace of what is kept: effects still running last to its end.
  public func trace() -> ChromeTrace {
    let kept = kept.withLock { $0 }
    var names: [UInt64: Input] = [:]
    for (sequence, input) in kept.inputs.elements { names[sequence] = input }
    var trace = ChromeTrace(process: process)
    for step in kept.steps.elements {
      let name = names[step.sequence].map { Self.name(of: $0) } ?? "input \(step.sequence)"
      trace.add(step: step, name: name)
    }
    for effect in kept.effects.elements {
      trace.addEffect(
        id: effect.id,
        name: effect.name,
        start: effect.start,
        end: effect.end,
        cancelled: effect.cancelled
      )
    }
    for (id, effect) in kept.running.sorted(by: { $0.value.start < $1.value.start }) {
      trace.addEffect(id: id, name: effect.name, start: effect.start, end: nil, cancelled: false)
    }
    return trace
  }

  /// The trace as JSON text (``ChromeTrace/json()``).
  public func json() -> String { trace().json() }

  /// Writes the trace to `url`, replacing the file.
  ///
  /// - Throws: If the file cannot be written.
  public func write(to url: URL) throws {
    try Data(json().utf8).write(to: url, options: .atomic)
  }

  /// An input's name: its description, cut at 200 characters.
  static func name(of input: Input) -> String {
    let description = String(describing: input)
    guard description.count > 200 else { return description }
    return String(description.prefix(200)) + "…"
  }
}

/// The last elements appended, up to a capacity, oldest first.
struct Ring<Element> {
  private var storage: [Element] = []
  /// Where the oldest element is, once the ring is full.
  private var head = 0

  /// Appends `element`, letting the oldest go beyond `capacity`.
  mutating func append(_ element: Element, capacity: Int) {
    if storage.count < capacity {
      storage.append(element)
    } else {
      storage[head] = element
      head = (head + 1) % storage.count
    }
  }

  /// The elements, oldest first.
  var elements: [Element] { Array(storage[head...] + storage[..<head]) }
}

extension Ring: Sendable where Element: Sendable {}
