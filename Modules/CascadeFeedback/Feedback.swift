public import CascadeStreams

/// What a feedback receives when a loop starts: the states, and a way to send events.
public struct FeedbackContext<State: Sendable, Event: Sendable>: Sendable {
  /// The loop's states: the current one on subscription, then every new one, in order, each
  /// exactly once, delivered synchronously on the thread that reduced it.
  public let states: Observable<State, Never>
  @usableFromInline let sendEvent: @Sendable (Event) -> Void
  @usableFromInline let reportError: @Sendable (any Error) -> Void
  /// Registers an effect with the loop's cancellation registry (see ``EffectLease``).
  @usableFromInline let beginEffect:
    @Sendable (_ stop: @escaping @Sendable () -> Void) -> EffectLease<Event>?

  /// Creates a context; loops build these (and tests of custom feedbacks may).
  public init(
    states: Observable<State, Never>,
    send: @escaping @Sendable (Event) -> Void,
    report: @escaping @Sendable (any Error) -> Void = { _ in }
  ) {
    self.states = states
    sendEvent = send
    reportError = report
    beginEffect = { stop in .unregistered(send: send, stop: stop) }
  }

  @usableFromInline
  init(
    states: Observable<State, Never>,
    send: @escaping @Sendable (Event) -> Void,
    report: @escaping @Sendable (any Error) -> Void,
    beginEffect: @escaping @Sendable (@escaping @Sendable () -> Void) -> EffectLease<Event>?
  ) {
    self.states = states
    sendEvent = send
    reportError = report
    self.beginEffect = beginEffect
  }

  /// Reports an effect's error through the loop's diagnostics; the loop goes on.
  public func report(_ error: any Error) {
    reportError(error)
  }

  /// Sends an event to the loop; it is reduced after the state being delivered, never against
  /// a stale state.
  @inlinable
  public func send(_ event: Event) {
    sendEvent(event)
  }
}

/// A processing engine that watches a loop's state and emits events: ReactiveFeedback's and
/// RxFeedback's `Feedback`.
///
/// Feedbacks never change the state; they emit events, which the loop's reducer turns into the
/// next state. Build one from the whole state stream (``init(_:)``), from a query whose changes
/// restart an effect (``init(skippingRepeated:effects:)``), from a predicate
/// (``init(predicate:effects:)``), from a set of keyed requests
/// (``init(requests:effects:)-(_,(Key,Observable<Request,Never>)->Effect)``), or from external
/// inputs (``input(_:)``).
///
/// Cancellation is complete: when an effect is cancelled (its query changed, its predicate turned
/// false, its key vanished, or the loop stopped), the events it emitted that were not yet reduced
/// are dropped, so a cancelled effect never changes the state.
public struct Feedback<State: Sendable, Event: Sendable>: Sendable {
  @usableFromInline let start: @Sendable (FeedbackContext<State, Event>) -> any Disposable

  /// A feedback from the whole state stream to events (the custom form).
  ///
  /// ```swift
  /// let log = Feedback<Int, Event> { states in
  ///   states.filter { $0 > 10 }.map { _ in .reset }.asObservable()
  /// }
  /// ```
  @inlinable
  public init(_ events: @escaping @Sendable (Observable<State, Never>) -> Observable<Event, Never>)
  {
    start = { context in
      events(context.states).subscribe(onNext: { context.send($0) })
    }
  }

  /// A feedback with full control of its subscription: `start` receives the context and returns
  /// what ends the feedback.
  @inlinable
  public init(start: @escaping @Sendable (FeedbackContext<State, Event>) -> any Disposable) {
    self.start = start
  }

  /// A feedback fed by external inputs, such as the UI's events; it ignores the state.
  ///
  /// ```swift
  /// let increment = Feedback<Int, Event>.input(plusTaps.map { .increment })
  /// ```
  @inlinable
  public static func input<S: ObservableType>(_ events: S) -> Feedback
  where S.Element == Event, S.Failure == Never {
    Feedback(start: { context in events.subscribe(onNext: { context.send($0) }) })
  }

  /// This feedback on a part of a larger state, sending its events as the larger system's.
  ///
  /// ```swift
  /// let paging = pagingFeedback().pullback(state: \.movies, event: AppEvent.movies)
  /// ```
  public func pullback<ParentState: Sendable, ParentEvent: Sendable>(
    state toChild: @escaping @Sendable (ParentState) -> State,
    event toParent: @escaping @Sendable (Event) -> ParentEvent
  ) -> Feedback<ParentState, ParentEvent> {
    let start = start
    return Feedback<ParentState, ParentEvent>(start: { context in
      start(
        FeedbackContext<State, Event>(
          states: context.states.map(toChild).asObservable(),
          send: { context.send(toParent($0)) },
          report: context.reportError,
          beginEffect: { stop in context.beginEffect(stop)?.pullback(toParent) }
        )
      )
    })
  }
}

/// One running effect of a feedback, registered with its loop's cancellation registry (the
/// store's, shared with Store commands and reactor streams: see `Store.beginEffect`).
///
/// The effect sends its events through ``send``; ``cancel()`` stops it and drops the events it
/// sent that are not reduced yet; ``end()`` is called exactly once when it ends, however it ends
/// (what the loop's `finish()` waits for).
@usableFromInline
struct EffectLease<Event: Sendable>: Sendable {
  let send: @Sendable (Event) -> Void
  let cancel: @Sendable () -> Void
  let end: @Sendable () -> Void

  /// An effect of a context made outside a loop: nothing counts it; cancelling it drops what it
  /// sends afterwards.
  static func unregistered(
    send: @escaping @Sendable (Event) -> Void,
    stop: @escaping @Sendable () -> Void
  ) -> EffectLease {
    let cancelled = LockedFlag()
    return EffectLease(
      send: { if !cancelled.value { send($0) } },
      cancel: {
        cancelled.set()
        stop()
      },
      end: {}
    )
  }

  @usableFromInline
  init(
    send: @escaping @Sendable (Event) -> Void,
    cancel: @escaping @Sendable () -> Void,
    end: @escaping @Sendable () -> Void
  ) {
    self.send = send
    self.cancel = cancel
    self.end = end
  }

  /// The same effect, for a feedback whose events become this one's through `toParent`.
  func pullback<Child: Sendable>(
    _ toParent: @escaping @Sendable (Child) -> Event
  ) -> EffectLease<Child> {
    let send = send
    return EffectLease<Child>(send: { send(toParent($0)) }, cancel: cancel, end: end)
  }
}
