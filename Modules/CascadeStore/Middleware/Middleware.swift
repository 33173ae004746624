public import CascadeStreams

/// A value that sees every input an architecture processes, with the state it produced.
///
/// One middleware value attaches to a `Store`, a `Reactor` and a `Feedback` system alike: the
/// *input* is the store's event or action, the reactor's action, or the feedback system's event.
///
/// The engine calls a middleware on the thread that processes the input (the one that reduces it),
/// never under an internal lock, in the order middlewares were given:
///
/// 1. ``intercept(_:state:)`` before the input is reduced, with the state before it. Return the
///    input (perhaps transformed) to proceed, or `nil` to block it (Redux-style middleware).
/// 2. The input is reduced.
/// 3. ``process(_:)`` with a ``MiddlewareRecord``: the input, the reactor's mutation if any, the
///    state after (and before, if ``wantsStateBefore``), a sequence number and the time on the
///    architecture's scheduler, and a ``MiddlewareDispatcher`` to send further inputs. Those are
///    queued: they are reduced after the current input has been fully processed (middlewares run
///    and subscribers notified), never recursively.
///
/// Neither call throws: a middleware whose work can fail handles the failure itself and reports
/// it through logging (or dispatches an input that records it). Both hold up the architecture
/// while they run, so slow work (network, disk) belongs in a task of the middleware's own.
///
/// The seed's form works as written: implement only `process(event:state:)`.
///
/// ```swift
/// struct LevelUpAnnouncer: Middleware {
///   func process(event: any CoreEvent, state: RPGState) {
///     if event is LevelUp { print("Leveled Up!") }
///   }
/// }
/// ```
public protocol Middleware<Input, State>: Sendable {
  /// The inputs processed: events, actions.
  associatedtype Input: Sendable
  /// The architecture's state.
  associatedtype State: Sendable

  /// Whether ``MiddlewareRecord/stateBefore`` should be filled in. Default `false`: keeping the
  /// state before each input costs a copy of the state, which the engine only makes when asked.
  var wantsStateBefore: Bool { get }

  /// Whether ``intercept(_:state:)`` must run. Default `true`; a middleware that only observes
  /// (logging, analytics) says `false`, and the engine then skips the call per input.
  var interceptsInputs: Bool { get }

  /// Whether ``process(_:)`` must run. Default `true`; a middleware that takes the inputs from
  /// the architecture's log (``MiddlewareHost/openLog(wake:)``) and has nothing left to do per
  /// input says `false` once it has the log, and the engine then skips the call, and the
  /// record, per input.
  ///
  /// Read once, when the architecture is made, after ``attached(to:)``. A ``MiddlewareStack``
  /// reads it when it is made (``MiddlewareStack/init(attaching:to:)`` attaches first).
  var processesInputs: Bool { get }

  /// A tracer the architecture hands its timings to (``StoreTracer``): how long each input spent
  /// in the middlewares, the reducer and the delivery, and each effect's start and end. Read
  /// once, when the architecture is made. Default `nil`: no clock is read.
  var tracer: (any StoreTracer)? { get }

  /// Called once, when the architecture is made, before its first input: `host` reads the
  /// architecture's state from any thread (``MiddlewareHost/snapshot()``) and opens its log of
  /// inputs (``MiddlewareHost/openLog(wake:)``), for a middleware that works on a thread of its
  /// own and wants the inputs in batches and the state only now and then.
  ///
  /// The default does nothing.
  func attached(to host: MiddlewareHost<Input, State>)

  /// Runs before `input` is reduced; returns the input to reduce, or `nil` to block it.
  ///
  /// The default returns `input` unchanged.
  func intercept(_ input: Input, state: State) -> Input?

  /// Runs after an input was reduced.
  ///
  /// The default calls ``process(event:state:)``.
  func process(_ record: MiddlewareRecord<Input, State>)

  /// Runs after an input was reduced, with the input and the resulting state: the seed's form.
  ///
  /// The default does nothing.
  func process(event: Input, state: State)
}

extension Middleware {
  /// No copy of the state before each input.
  public var wantsStateBefore: Bool { false }

  /// `true`: ``intercept(_:state:)`` runs for every input.
  public var interceptsInputs: Bool { true }

  /// `true`: ``process(_:)`` runs for every input.
  public var processesInputs: Bool { true }

  /// `nil`: the middleware takes no timings.
  public var tracer: (any StoreTracer)? { nil }

  /// Does nothing.
  public func attached(to host: MiddlewareHost<Input, State>) {}

  /// Proceeds with `input` unchanged.
  public func intercept(_ input: Input, state: State) -> Input? { input }

  /// Calls ``process(event:state:)``.
  public func process(_ record: MiddlewareRecord<Input, State>) {
    process(event: record.input, state: record.state)
  }

  /// Does nothing.
  public func process(event: Input, state: State) {}
}

/// What a middleware sees after an input was reduced.
public struct MiddlewareRecord<Input: Sendable, State: Sendable>: Sendable {
  /// The input that was reduced (after interception).
  public var input: Input
  // Spelled `Optional<…>`, not `…?`: a `var` of `T?` starts as `nil` before the initializer
  // runs, and the initializer's assignment then replaced that `nil` through the type's value
  // witnesses (W1 Store with a `LoggingMiddleware`, callgrind).
  /// The mutation a reactor derived from the input, if the architecture has mutations.
  ///
  /// One middleware contract serves all three architectures, so the record does not name a
  /// mutation type; read it typed with ``mutation(as:)``.
  public var mutation: Optional<any Sendable>
  /// The state before the input, if a middleware asked for it with
  /// ``Middleware/wantsStateBefore``.
  public var stateBefore: Optional<State>
  /// The state after the input.
  public var state: State
  /// The input's position among all inputs the architecture reduced, counting from 1.
  public var sequence: UInt64
  /// When the input was reduced, on the architecture's scheduler clock.
  public var time: SchedulerInstant
  /// Sends further inputs to the architecture; they are queued behind the current one.
  public var dispatcher: MiddlewareDispatcher<Input>

  /// Creates a record; architectures build these, tests may too.
  ///
  /// Inlinable: made for every input a middleware processes, in the architecture's code
  /// specialized for its types, it copies them without their value witnesses.
  @inlinable
  public init(
    input: Input,
    mutation: (any Sendable)? = nil,
    stateBefore: State? = nil,
    state: State,
    sequence: UInt64,
    time: SchedulerInstant,
    dispatcher: MiddlewareDispatcher<Input>
  ) {
    self.input = input
    self.mutation = mutation
    self.stateBefore = stateBefore
    self.state = state
    self.sequence = sequence
    self.time = time
    self.dispatcher = dispatcher
  }

  /// The reactor's mutation as `Mutation`, or `nil` if there is none or it has another type.
  ///
  /// ```swift
  /// if let mutation = record.mutation(as: CounterReactor.Mutation.self) {
  ///   metrics.count(mutation)
  /// }
  /// ```
  @inlinable
  public func mutation<Mutation: Sendable>(as type: Mutation.Type = Mutation.self) -> Mutation? {
    mutation as? Mutation
  }
}

/// Sends inputs back into the architecture a middleware is attached to.
///
/// It holds the architecture weakly: once the architecture is gone, dispatching does nothing.
public struct MiddlewareDispatcher<Input: Sendable>: Sendable {
  private let send: @Sendable (Input) -> Void

  /// Creates a dispatcher from the architecture's send function.
  public init(_ send: @escaping @Sendable (Input) -> Void) {
    self.send = send
  }

  /// A dispatcher that drops everything, for tests and replays.
  public static var none: MiddlewareDispatcher { MiddlewareDispatcher { _ in } }

  /// Sends `input`; it is reduced after the input being processed now.
  public func dispatch(_ input: Input) {
    send(input)
  }

  /// This dispatcher as a middleware lifted onto its architecture dispatches: each of its
  /// inputs embedded in one of the architecture's (a pullback's, a reactor's action).
  @usableFromInline
  package func embedding<Child: Sendable>(
    _ embed: @escaping @Sendable (Child) -> Input
  ) -> MiddlewareDispatcher<Child> {
    MiddlewareDispatcher<Child> { dispatch(embed($0)) }
  }
}
