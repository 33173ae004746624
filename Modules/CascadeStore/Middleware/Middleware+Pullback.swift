extension Middleware {
  /// Lifts this middleware, written for a child state, onto a parent state with the same input.
  ///
  /// The lifted middleware sees the child state wherever this one would see state:
  /// ``intercept(_:state:)``, ``MiddlewareRecord/state`` and ``MiddlewareRecord/stateBefore``.
  ///
  /// ```swift
  /// let cart = CartAnalytics()                             // Middleware<Action, Cart>
  /// let app: any Middleware<Action, AppState> = cart.pullback(state: \.cart)
  /// ```
  ///
  /// - Parameter state: The path from the parent state to this middleware's state.
  /// - Returns: A middleware on the parent state.
  public func pullback<ParentState: Sendable>(
    state: any KeyPath<ParentState, State> & Sendable
  ) -> some Middleware<Input, ParentState> {
    PullbackMiddleware(child: self, state: state, extract: { $0 }, embed: { $0 })
  }

  /// Lifts this middleware, written for a child input and state, onto a parent input and state.
  ///
  /// The lifted middleware only concerns itself with the parent inputs `extract` turns into
  /// child inputs; it lets the others through untouched and does not see them. For those it
  /// handles:
  ///
  /// - ``intercept(_:state:)`` intercepts the child input with the child state; a blocked input
  ///   stays blocked, and a transformed one goes back into the parent input with `embed`.
  /// - ``process(_:)`` receives the child input, the child state (after and, if asked, before)
  ///   and a dispatcher whose inputs `embed` lifts into the parent's. Sequence, time and the
  ///   mutation are the parent's.
  ///
  /// For an enum of inputs, `embed` is the case and `extract` matches it. Pass `\.self` as the
  /// state to lift the input only.
  ///
  /// ```swift
  /// enum AppAction { case cart(CartAction), profile(ProfileAction) }
  ///
  /// let app: any Middleware<AppAction, AppState> = CartAnalytics().pullback(
  ///   state: \.cart,
  ///   input: { if case .cart(let action) = $0 { action } else { nil } },
  ///   embed: AppAction.cart
  /// )
  /// ```
  ///
  /// - Parameters:
  ///   - state: The path from the parent state to this middleware's state.
  ///   - extract: The child input a parent input carries, or `nil` if it carries none.
  ///   - embed: The parent input carrying a child input.
  /// - Returns: A middleware on the parent input and state.
  public func pullback<ParentInput: Sendable, ParentState: Sendable>(
    state: any KeyPath<ParentState, State> & Sendable,
    input extract: @escaping @Sendable (ParentInput) -> Input?,
    embed: @escaping @Sendable (Input) -> ParentInput
  ) -> some Middleware<ParentInput, ParentState> {
    PullbackMiddleware(child: self, state: state, extract: extract, embed: embed)
  }
}

/// A child middleware seen through a state key path and an input extraction.
private struct PullbackMiddleware<Child: Middleware, Input: Sendable, State: Sendable>:
  RemadeOnAttach
{
  let child: Child
  let state: any KeyPath<State, Child.State> & Sendable
  let extract: @Sendable (Input) -> Child.Input?
  let embed: @Sendable (Child.Input) -> Input
  /// The dispatcher of the records the child sees, mapped once from the architecture's
  /// (``MiddlewareHost/dispatcher``) as it is attached; `nil` before, or on an architecture
  /// without one: then each record's is mapped.
  var dispatcher: MiddlewareDispatcher<Child.Input>? = nil

  typealias ChildHost = MiddlewareHost<Child.Input, Child.State>

  var wantsStateBefore: Bool { child.wantsStateBefore }

  var interceptsInputs: Bool { child.interceptsInputs }

  var processesInputs: Bool { child.processesInputs }

  var tracer: (any StoreTracer)? { child.tracer }

  func attached(to host: MiddlewareHost<Input, State>) {
    child.attached(to: childHost(of: host))
  }

  /// Attaches the child, and returns this middleware with the architecture's dispatcher mapped
  /// for it.
  func attachedAndRemade(to host: MiddlewareHost<Input, State>) -> any Middleware<Input, State> {
    let childHost = childHost(of: host)
    child.attached(to: childHost)
    var remade = self
    remade.dispatcher = childHost.dispatcher
    return remade
  }

  /// `host` as the child sees it.
  private func childHost(of host: MiddlewareHost<Input, State>) -> ChildHost {
    let extract = extract
    return host.mapped(state: state, input: { extract($0).map { ($0, nil) } }, embed: embed)
  }

  func intercept(_ input: Input, state: State) -> Input? {
    guard let childInput = extract(input) else { return input }
    return child.intercept(childInput, state: state[keyPath: self.state]).map(embed)
  }

  func process(_ record: MiddlewareRecord<Input, State>) {
    guard let childInput = extract(record.input) else { return }
    child.process(
      MiddlewareRecord(
        input: childInput,
        mutation: record.mutation,
        stateBefore: record.stateBefore.map { $0[keyPath: state] },
        state: record.state[keyPath: state],
        sequence: record.sequence,
        time: record.time,
        dispatcher: dispatcher ?? record.dispatcher.embedding(embed)
      )
    )
  }
}
