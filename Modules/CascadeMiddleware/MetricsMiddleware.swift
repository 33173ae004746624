public import CascadeStore
import CascadeStreams
public import CoreMetrics

/// A middleware that reports throughput to swift-metrics: a counter per input kind and a timer
/// for processing.
///
/// For each input it intercepts it increments the counter `<label>.inputs` with the dimension
/// `kind`, and records in the timer `<label>.processing` (same dimension) the time from
/// ``intercept(_:state:)`` to ``process(_:)`` — the other middlewares' interception and the
/// reduction. A metrics backend (Prometheus, StatsD, OpenTelemetry…) then shows inputs per second by
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
/// Put it **first** among the middlewares: it then counts every input sent, including those a
/// later middleware blocks (which record no time), and its timer covers the others'
/// interception. A reactor's action counts once, however many mutations it makes; its time runs
/// from the action's interception to the processing of its first mutation, and an action without
/// a synchronous mutation records no time.
public struct MetricsMiddleware<Input: Sendable, State: Sendable>: Middleware {
  /// The prefix of the metrics' labels.
  public let label: String
  private let factory: any MetricsFactory
  private let kind: @Sendable (Input) -> String
  private let instruments = LockedValue<[String: Instruments]>([:])
  /// The input being processed, per processing thread.
  private let starts = LockedValue<[UInt: Started]>([:])

  private struct Started {
    var at: ContinuousClock.Instant
    var timer: CoreMetrics.Timer
  }

  private struct Instruments: Sendable {
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
    kind: @escaping @Sendable (Input) -> String = { middlewareInputKind(of: $0) }
  ) {
    self.label = label
    self.factory = factory
    self.kind = kind
  }

  /// Counts the input, notes when its processing started, and lets it through.
  public func intercept(_ input: Input, state: State) -> Input? {
    let instruments = self.instruments(for: kind(input))
    instruments.counter.increment()
    let started = Started(at: .now, timer: instruments.timer)
    let thread = currentThreadIdentity()
    starts.withLock { $0[thread] = started }
    return input
  }

  /// Records the input's processing time.
  public func process(_ record: MiddlewareRecord<Input, State>) {
    let thread = currentThreadIdentity()
    guard let started = starts.withLock({ $0.removeValue(forKey: thread) }) else { return }
    let (seconds, attoseconds) = started.at.duration(to: .now).components
    started.timer.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
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
}

/// The kind of an input, as ``MetricsMiddleware`` names it by default: an enum's case name (`add` for `.add("milk")`), or the
/// input's type name.
public func middlewareInputKind<Input>(of input: Input) -> String {
  let mirror = Mirror(reflecting: input)
  if mirror.displayStyle == .enum {
    if let label = mirror.children.first?.label { return label }
    return String(describing: input)
  }
  return String(describing: type(of: input))
}
