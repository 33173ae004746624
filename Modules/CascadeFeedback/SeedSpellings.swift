// The seeds' spellings: ReactiveFeedback's names for what CascadeFeedback names otherwise.
//
// Cascade spells the state an architecture starts from `initialState:` on all three
// architectures (`Store(initialState:)`, a reactor's `initialState`, RxFeedback's
// `system(initialState:)`). ReactiveFeedback, the seed of this module, spells it `initial:`
// (`Loop(initial:reduce:feedbacks:)`, `SignalProducer.system(initial:reduce:feedbacks:)`), and
// code ported from it compiles unchanged with the forms below. They are not deprecated: each
// forwards to the form it names, and behaves as it does.

public import CascadeStore
public import CascadeStreams

extension FeedbackLoop {
  /// ReactiveFeedback's spelling of
  /// ``init(initialState:reduce:feedbacks:scheduler:deliversEveryState:middlewares:diagnostics:)``:
  /// `Loop(initial:reduce:feedbacks:)`.
  @inlinable
  public convenience init(
    initial: State,
    reduce: @escaping @Sendable (State, Event) -> State,
    feedbacks: [Feedback<State, Event>],
    scheduler: any Scheduler = MainScheduler(),
    deliversEveryState: Bool = false,
    middlewares: [any Middleware<Event, State>] = [],
    diagnostics: (@Sendable (StoreDiagnostic) -> Void)? = nil
  ) {
    self.init(
      initialState: initial,
      reduce: reduce,
      feedbacks: feedbacks,
      scheduler: scheduler,
      deliversEveryState: deliversEveryState,
      middlewares: middlewares,
      diagnostics: diagnostics
    )
  }

  /// ReactiveFeedback's spelling of
  /// ``init(initialState:reduceInPlace:feedbacks:scheduler:deliversEveryState:middlewares:diagnostics:)``.
  @inlinable
  public convenience init(
    initial: State,
    reduceInPlace reduce: @escaping @Sendable (inout State, Event) -> Void,
    feedbacks: [Feedback<State, Event>],
    scheduler: any Scheduler = MainScheduler(),
    deliversEveryState: Bool = false,
    middlewares: [any Middleware<Event, State>] = [],
    diagnostics: (@Sendable (StoreDiagnostic) -> Void)? = nil
  ) {
    self.init(
      initialState: initial,
      reduceInPlace: reduce,
      feedbacks: feedbacks,
      scheduler: scheduler,
      deliversEveryState: deliversEveryState,
      middlewares: middlewares,
      diagnostics: diagnostics
    )
  }
}

extension Observable where Failure == Never, Element: Sendable {
  /// ReactiveFeedback's spelling of
  /// ``system(initialState:reduce:feedbacks:scheduler:deliversEveryState:diagnostics:)``:
  /// `SignalProducer.system(initial:reduce:feedbacks:)`.
  public static func system<Event: Sendable>(
    initial: Element,
    reduce: @escaping @Sendable (Element, Event) -> Element,
    feedbacks: [Feedback<Element, Event>],
    scheduler: any Scheduler = MainScheduler(),
    deliversEveryState: Bool = false,
    diagnostics: (@Sendable (StoreDiagnostic) -> Void)? = nil
  ) -> Observable<Element, Never> {
    system(
      initialState: initial,
      reduce: reduce,
      feedbacks: feedbacks,
      scheduler: scheduler,
      deliversEveryState: deliversEveryState,
      diagnostics: diagnostics
    )
  }

  /// ReactiveFeedback's spelling of
  /// ``system(initialState:reduceInPlace:feedbacks:scheduler:deliversEveryState:diagnostics:)``:
  /// `SignalProducer.feedbackLoop(initial:reduce:feedbacks:)`.
  public static func system<Event: Sendable>(
    initial: Element,
    reduceInPlace reduce: @escaping @Sendable (inout Element, Event) -> Void,
    feedbacks: [Feedback<Element, Event>],
    scheduler: any Scheduler = MainScheduler(),
    deliversEveryState: Bool = false,
    diagnostics: (@Sendable (StoreDiagnostic) -> Void)? = nil
  ) -> Observable<Element, Never> {
    system(
      initialState: initial,
      reduceInPlace: reduce,
      feedbacks: feedbacks,
      scheduler: scheduler,
      deliversEveryState: deliversEveryState,
      diagnostics: diagnostics
    )
  }
}
