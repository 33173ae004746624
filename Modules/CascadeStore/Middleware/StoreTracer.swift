#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Receives the engine's timings: how long each input spent in the middlewares, the reducer and
/// the delivery to subscribers, and when each effect started and ended.
///
/// A middleware hands one to the architecture it is attached to through ``Middleware/tracer``;
/// a Store, a Reactor and a FeedbackLoop alike then time every input, from when the engine
/// takes it to when its subscribers have been notified. Without a tracer (the default) the
/// engine reads no clock: the checks cost about 13 instructions per input (callgrind, W1: 582 →
/// 595 on a store, 899 → 912 on a reactor).
///
/// The engine calls a tracer with no lock held:
/// - ``traced(_:)`` on the thread that processed the input, once its subscribers have been
///   notified, in processing order;
/// - ``effectStarted(_:name:at:)`` on the processing thread, as the effect starts (before its
///   task runs);
/// - ``effectEnded(_:cancelled:at:)`` on whichever thread the effect ends on (a command's task,
///   a stream's), so a tracer must be safe to call from several threads at once.
///
/// Each call holds up the architecture while it runs: a tracer keeps the timings (they are plain
/// numbers) and does its work elsewhere. `ChromeTraceRecorder` (CascadeMiddleware) is one: it
/// writes them in Chrome's trace event format, which Perfetto opens.
///
/// ```swift
/// final class SlowReductions: StoreTracer {
///   func traced(_ step: StepTiming) {
///     if step.reduceDuration > 1_000_000 { print("input \(step.sequence): slow reduce") }
///   }
///   func effectStarted(_ effect: Int, name: String, at time: UInt64) {}
///   func effectEnded(_ effect: Int, cancelled: Bool, at time: UInt64) {}
/// }
/// ```
public protocol StoreTracer: AnyObject, Sendable {
  /// One input was processed: its timings.
  func traced(_ step: StepTiming)
  /// Effect `effect` (a number unique in its architecture while it runs) started, named `name`
  /// (an asynchronous command's name, or a description of the effect), at `time`
  /// (``StepTiming/now``).
  func effectStarted(_ effect: Int, name: String, at time: UInt64)
  /// Effect `effect` ended at `time`: returned, failed, completed, or was cancelled
  /// (`cancelled`).
  func effectEnded(_ effect: Int, cancelled: Bool, at time: UInt64)
  /// Whether the engine times the inputs and effects that begin now: `true` unless the tracer
  /// says otherwise.
  ///
  /// A tracer switched on and off (an inspector's, on only while someone looks) answers `false`
  /// while off: the engine then reads no clock for the inputs and effects that begin. It asks
  /// before each clock reading it would take (four an input) and as each effect begins, so
  /// reading it must be cheap (an atomic load); an input it is switched off in the middle of
  /// gives no timing.
  /// Every effect's end is reported, whatever the answer when it began, and a tracer that shares
  /// an architecture with one that traces is handed the timings anyway: one that is off ignores
  /// the timings and the effects it did not see start.
  var isTracing: Bool { get }
}

extension StoreTracer {
  /// Always tracing.
  public var isTracing: Bool { true }
}

/// The timings of one input an architecture processed, in nanoseconds of ``now``.
///
/// The phases follow each other: the middlewares' interception (``received`` to
/// ``intercepted``), the architecture's own step (a reactor's `mutate`, up to ``reduceStart``),
/// the reducer (to ``reduced``), the middlewares' processing (to ``processed``), the delivery to
/// subscribers (to ``delivered``). A reactor action that yields several mutations gives one
/// timing per mutation: the first carries the interception and the step, the others start at
/// their reduction.
public struct StepTiming: Sendable, Equatable {
  /// The input's position among all inputs the architecture reduced, counting from 1: the
  /// ``MiddlewareRecord/sequence`` of the same input.
  public var sequence: UInt64
  /// The thread that processed it (an opaque identity, equal for the same thread).
  public var thread: UInt
  /// When the engine took the input, before the middlewares' interception.
  public var received: UInt64
  /// When the middlewares' interception ended.
  public var intercepted: UInt64
  /// When the reducer began (the store's lock taken).
  public var reduceStart: UInt64
  /// When the reducer returned.
  public var reduced: UInt64
  /// When the middlewares' processing ended.
  public var processed: UInt64
  /// When the subscribers had been notified.
  public var delivered: UInt64

  /// Creates a timing; architectures make these, tests may too.
  public init(
    sequence: UInt64,
    thread: UInt,
    received: UInt64,
    intercepted: UInt64,
    reduceStart: UInt64,
    reduced: UInt64,
    processed: UInt64,
    delivered: UInt64
  ) {
    self.sequence = sequence
    self.thread = thread
    self.received = received
    self.intercepted = intercepted
    self.reduceStart = reduceStart
    self.reduced = reduced
    self.processed = processed
    self.delivered = delivered
  }

  /// Nanoseconds in the reducer.
  @inlinable public var reduceDuration: UInt64 { reduced &- reduceStart }
  /// Nanoseconds in the middlewares: their interception and their processing.
  @inlinable public var middlewareDuration: UInt64 {
    (intercepted &- received) &+ (processed &- reduced)
  }
  /// Nanoseconds delivering the state to subscribers.
  @inlinable public var deliveryDuration: UInt64 { delivered &- processed }

  /// The clock of the timings: nanoseconds since an arbitrary point (the system's boot), steady
  /// (never set back), the same for every thread of the process.
  ///
  /// The system's monotonic clock, asked directly: through `DispatchTime.now()` each read cost
  /// a fifth more (`cascade-inspector-bench live-rpg`, timed, under perf), and the engine reads
  /// it four times per input while it is timed.
  public static var now: UInt64 {
    #if canImport(Darwin)
    return clock_gettime_nsec_np(CLOCK_UPTIME_RAW)
    #else
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    #endif
  }
}

/// The tracers of several middlewares, called in order.
final class StoreTracers: StoreTracer {
  let tracers: [any StoreTracer]

  init(_ tracers: [any StoreTracer]) { self.tracers = tracers }

  func traced(_ step: StepTiming) {
    for tracer in tracers { tracer.traced(step) }
  }

  func effectStarted(_ effect: Int, name: String, at time: UInt64) {
    for tracer in tracers { tracer.effectStarted(effect, name: name, at: time) }
  }

  func effectEnded(_ effect: Int, cancelled: Bool, at time: UInt64) {
    for tracer in tracers { tracer.effectEnded(effect, cancelled: cancelled, at: time) }
  }

  /// Whether any of them traces; each is handed the timings regardless, and one that does not
  /// trace ignores them.
  var isTracing: Bool { tracers.contains { $0.isTracing } }
}
