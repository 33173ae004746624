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
/// **Cost.** Six clock reads and two locks per input, on the processing thread; the trace is
/// written by ``json()`` or ``write(to:)``, off the architecture's path.
public final class ChromeTraceRecorder<Input: Sendable, State: Sendable>: Middleware {
  /// The process's name in the trace viewer.
  public let process: String
  /// How many inputs (and, apart, ended effects) are kept.
  public var capacity: Int { timings.capacity }
  private let timings: TraceBuffer
  /// The last inputs, by sequence, to name their steps.
  private let inputs = LockedValue(Ring<(sequence: UInt64, input: Input)>())

  /// Creates a recorder keeping the last `capacity` inputs and effects (at least 1).
  public init(process: String = "Cascade", capacity: Int = 100_000) {
    self.process = process
    timings = TraceBuffer(capacity: capacity)
  }

  /// Its ``TraceBuffer``: the architecture hands it its timings.
  public var tracer: (any StoreTracer)? { timings }

  /// `false`: it only observes.
  public var interceptsInputs: Bool { false }

  /// Keeps the input, to name its step.
  public func process(_ record: MiddlewareRecord<Input, State>) {
    let capacity = timings.capacity
    inputs.withLock { $0.append((record.sequence, record.input), capacity: capacity) }
  }

  /// The trace of what is kept: effects still running last to its end.
  public func trace() -> ChromeTrace {
    var names: [UInt64: Input] = [:]
    for (sequence, input) in inputs.withLock({ $0.elements }) { names[sequence] = input }
    return timings.trace(process: process) { names[$0].map(Self.name(of:)) }
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
