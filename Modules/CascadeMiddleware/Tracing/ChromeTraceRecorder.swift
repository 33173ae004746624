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
  public var capacity: Int { naming.timings.capacity }
  private let naming: InputNaming<Input>

  /// Creates a recorder keeping the last `capacity` inputs and effects (at least 1).
  public init(process: String = "Cascade", capacity: Int = 100_000) {
    self.process = process
    naming = InputNaming(TraceBuffer(capacity: capacity))
  }

  /// The architecture hands it its timings.
  public var tracer: (any StoreTracer)? { naming }

  /// `false`: it only observes.
  public var interceptsInputs: Bool { false }

  /// Keeps the input until its timing comes, to name its step.
  public func process(_ record: MiddlewareRecord<Input, State>) {
    naming.pend(record.input, sequence: record.sequence)
  }

  /// The trace of what is kept: effects still running last to its end.
  public func trace() -> ChromeTrace {
    naming.timings.trace(process: process) { _, input in input.map(Self.name(of:)) }
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
  static func name(of input: any Sendable) -> String {
    let description = String(describing: input)
    guard description.count > 200 else { return description }
    return String(description.prefix(200)) + "…"
  }
}

/// Names each timing with its input, for ``ChromeTraceRecorder``.
///
/// The middleware's processing of an input and the engine's timing of it come one after the other on the processing thread, with no other input of the
/// same architecture between them (an input sent meanwhile is queued), and those of another
/// architecture processed inside them (a subscriber sending to it) come and go in between: so
/// each thread keeps its pending inputs as a stack, and a timing takes the top one if its
/// sequence is the timing's. Several architectures may share the recorder.
final class InputNaming<Input: Sendable>: StoreTracer {
  let timings: TraceBuffer
  private let pending = LockedValue<[UInt: [(sequence: UInt64, input: Input)]]>([:])

  init(_ timings: TraceBuffer) { self.timings = timings }

  /// Notes `input`, processed now on this thread, until its timing comes.
  func pend(_ input: Input, sequence: UInt64) {
    let thread = currentThreadIdentity()
    pending.withLock { pending in
      // Bounded: an input whose timing never comes (none should) is not kept for ever.
      if pending[thread, default: []].count >= 64 { pending[thread]?.removeFirst() }
      pending[thread, default: []].append((sequence, input))
    }
  }

  func traced(_ step: StepTiming) {
    let input = pending.withLock { pending -> Input? in
      guard let last = pending[step.thread]?.last, last.sequence == step.sequence else {
        return nil
      }
      pending[step.thread]?.removeLast()
      if pending[step.thread]?.isEmpty == true { pending[step.thread] = nil }
      return last.input
    }
    if let input {
      timings.traced(step, input: input)
    } else {
      timings.traced(step)
    }
  }

  func effectStarted(_ effect: Int, name: String, at time: UInt64) {
    timings.effectStarted(effect, name: name, at: time)
  }

  func effectEnded(_ effect: Int, cancelled: Bool, at time: UInt64) {
    timings.effectEnded(effect, cancelled: cancelled, at: time)
  }
}
