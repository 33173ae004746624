public import CascadeStore
public import CascadeStreams

extension Observable where Failure == Never, Element: Sendable {
  /// A feedback loop as a stream: each subscription runs a loop of its own, from `initialState`, and
  /// ending the subscription ends that loop — ReactiveFeedback's `SignalProducer.system`.
  ///
  /// The subscriber receives `initialState` first, at once, then every state, delivered on
  /// `scheduler`. As in ReactiveFeedback, the events the feedbacks emit go through `scheduler`
  /// too: each is reduced a turn later (on a `TestScheduler`, at the next `advance()`), so
  /// feedbacks that answer every state with an event never hold the subscriber, and ending the
  /// subscription (`take(3)` having taken its states) stops the loop. With an
  /// `ImmediateScheduler` there is no later turn: such feedbacks then run until the subscription
  /// ends, inside the call that subscribed.
  ///
  /// A ``FeedbackLoop`` instead reduces its feedbacks' events at once, in the processing run
  /// that produced the state they answer.
  ///
  /// ```swift
  /// let countdown = Observable.system(
  ///   initialState: 3,
  ///   reduce: { count, _ in count - 1 },
  ///   feedbacks: [
  ///     Feedback { states in
  ///       states.flatMapLatest { count in count > 0 ? .just(()) : .empty() }
  ///     }
  ///   ],
  ///   scheduler: ImmediateScheduler.instance
  /// )
  /// countdown.subscribe(onNext: { print($0) })  // 3, 2, 1, 0
  /// ```
  ///
  /// Keep a ``FeedbackLoop`` instead when several subscribers share one loop, or when events
  /// come from outside (``FeedbackLoop/send(_:)``).
  ///
  /// - Parameters:
  ///   - initialState: The state each loop starts from.
  ///   - reduce: The pure function `(State, Event) -> State`.
  ///   - feedbacks: The feedbacks, started in order for each subscription.
  ///   - scheduler: Where the states after `initialState` are delivered. Default: the main queue.
  ///   - deliversEveryState: Whether every state is delivered, however far behind the subscriber
  ///     is (default `false`: the latest).
  ///   - diagnostics: Receives what goes wrong in each loop (see ``FeedbackLoop``).
  /// - Returns: The states of a new loop per subscription.
  public static func system<Event: Sendable>(
    initialState: Element,
    reduce: @escaping @Sendable (Element, Event) -> Element,
    feedbacks: [Feedback<Element, Event>],
    scheduler: any Scheduler = MainScheduler(),
    deliversEveryState: Bool = false,
    diagnostics: (@Sendable (StoreDiagnostic) -> Void)? = nil
  ) -> Observable<Element, Never> {
    system(
      initialState: initialState,
      reduceInPlace: { state, event in state = reduce(state, event) },
      feedbacks: feedbacks,
      scheduler: scheduler,
      deliversEveryState: deliversEveryState,
      diagnostics: diagnostics
    )
  }

  /// A feedback loop as a stream, with a reducer that updates the state in place.
  ///
  /// ReactiveFeedback's `SignalProducer.feedbackLoop`. See
  /// ``system(initialState:reduce:feedbacks:scheduler:deliversEveryState:diagnostics:)``.
  public static func system<Event: Sendable>(
    initialState: Element,
    reduceInPlace reduce: @escaping @Sendable (inout Element, Event) -> Void,
    feedbacks: [Feedback<Element, Event>],
    scheduler: any Scheduler = MainScheduler(),
    deliversEveryState: Bool = false,
    diagnostics: (@Sendable (StoreDiagnostic) -> Void)? = nil
  ) -> Observable<Element, Never> {
    Observable.create { observer in
      let loop = FeedbackLoop(
        initialState: initialState,
        reduceInPlace: reduce,
        feedbacks: feedbacks,
        scheduler: scheduler,
        deliversEveryState: deliversEveryState,
        middlewares: [],
        diagnostics: diagnostics,
        startingFeedbacks: false,
        hoppingEvents: true,
        settleLimit: FeedbackLoop<Element, Event>.settleLimit
      )
      let subscription = loop.states.subscribe(observer)
      loop.startFeedbacks()
      return Disposables.create {
        subscription.dispose()
        loop.close()
      }
    }
  }
}
