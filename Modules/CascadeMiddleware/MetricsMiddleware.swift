import CascadeStreams
public import CoreMetrics

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A middleware that reports throughput to swift-metrics: a counter per input kind and a timer
/// for processing.
///
/// For each input it increments the counter `<label>.inputs` with the dimension `kind`, and
/// records in the timer `<label>.processing` (same dimension) the time from
/// ``intercept(_:state:)`` to ``process(_:)`` — the reduction and the middlewares before this
/// one. A metrics backend (Prometheus, StatsD, OpenTelemetry…) then shows inputs per second by
/// kind and how long they take.
///
/// ```swift
/// let metrics = MetricsMiddleware<Action, AppState>(label: "app.store")
/// // With Action.add("milk"), Action.add("eggs"), Action.checkout:
/// //   app.store.inputs{kind="add"} 2, app.store.inputs{kind="checkout"} 1
/// ```
///
/// The kind of an enum input is its case name (`add` for `.add("milk")`); of another input, its
/// type's name. Pass `kind` to name kinds otherwise, and keep their number small: each kind is
/// one counter and one timer in the backend.
///
/// Put it **first** among the middlewares for the timer to cover the others' interception too.
/// For a reactor, the time runs from the action's interception to the processing of its first
/// mutation; an action without a synchronous mutation records no time.
public struct MetricsMiddleware<Input: Sendable, State: Sendable>: Middleware {
  /// The prefix of the metrics' labels.
  public let label: String
  private let factory: any MetricsFactory
  private let kind: @Sendable (Input) -> String
  private let instruments = LockedValue<[String: Instruments]>([:])
  /// The start of the input being processed, per processing thread.
  private let starts = LockedValue<[UInt: ContinuousClock.Instant]>([:])

  private struct Instruments: @unchecked Sendable {
    // Safety: swift-metrics' Counter and Timer are thread-safe handles, immutable once made.
    var counter: Counter
    var timer: CoreMetrics.Timer
  }

  /// Creates a metrics middleware.
  ///
  /// - Parameters:
  ///   - label: The prefix of the metrics' labels.
  ///   - factory: Makes the metrics; by default the one `MetricsSystem` was bootstrapped with.
  ///   - kind: The kind an input counts as; by default its enum case name or its type's name.
  public init(
    label: String = "cascade",
    factory: any MetricsFactory = MetricsSystem.factory,
    kind: @escaping @Sendable (Input) -> String = { defaultKind(of: $0) }
  ) {
    self.label = label
    self.factory = factory
    self.kind = kind
  }

  /// Notes when the input's processing started and lets it through.
  public func intercept(_ input: Input, state: State) -> Input? {
    let now = ContinuousClock.now
    let thread = currentThread()
    starts.withLock { $0[thread] = now }
    return input
  }

  /// Counts the input and records its processing time.
  public func process(_ record: MiddlewareRecord<Input, State>) {
    let thread = currentThread()
    let start = starts.withLock { $0.removeValue(forKey: thread) }
    let instruments = self.instruments(for: kind(record.input))
    instruments.counter.increment()
    if let start {
      let elapsed = start.duration(to: .now)
      let (seconds, attoseconds) = elapsed.components
      instruments.timer.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
  }

  /// The counter and the timer of `kind`, made on first use (outside the lock: the factory is
  /// user code).
  private func instruments(for kind: String) -> Instruments {
    if let existing = instruments.withLock({ $0[kind] }) { return existing }
    let dimensions = [("kind", kind)]
    let made = Instruments(
      counter: Counter(label: "\(label).inputs", dimensions: dimensions, factory: factory),
      timer: CoreMetrics.Timer(
        label: "\(label).processing",
        dimensions: dimensions,
        factory: factory
      )
    )
    return instruments.withLock { instruments in
      if let existing = instruments[kind] { return existing }
      instruments[kind] = made
      return made
    }
  }

  private func currentThread() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
  }
}

/// The kind of an input for metrics: an enum's case name (`add` for `.add("milk")`), or the
/// input's type name.
public func defaultKind<Input>(of input: Input) -> String {
  let mirror = Mirror(reflecting: input)
  if mirror.displayStyle == .enum {
    if let label = mirror.children.first?.label { return label }
    return String(describing: input)
  }
  return String(describing: type(of: input))
}
