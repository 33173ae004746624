import CascadeMiddleware
import CascadeStore
import CascadeStreams
import CascadeTesting
import Testing

@Suite(.checksResources)
struct MiddlewarePullbackTests {
  struct Cart: Sendable, Equatable {
    var items: [String] = []
  }

  struct AppState: Sendable {
    var cart = Cart()
    var user = "ada"
  }

  enum CartAction: Sendable, Equatable {
    case add(String)
    case clear
  }

  enum AppAction: Sendable, Equatable {
    case cart(CartAction)
    case signOut
  }

  /// A middleware written for the cart alone: it records what it sees, dispatches a `clear`
  /// after adding "checkout", blocks adding "nothing" and renames "apple" to "pear".
  struct CartMiddleware: Middleware {
    let seen: Journal<String>
    var wantsStateBefore = false

    func intercept(_ input: CartAction, state: Cart) -> CartAction? {
      seen.append("intercept \(input) with \(state.items)")
      switch input {
      case .add("nothing"): return nil
      case .add("apple"): return .add("pear")
      default: return input
      }
    }

    func process(_ record: MiddlewareRecord<CartAction, Cart>) {
      let before = record.stateBefore.map { "\($0.items)" } ?? "-"
      seen.append("process \(record.input) #\(record.sequence): \(before) → \(record.state.items)")
      if record.input == .add("checkout") { record.dispatcher.dispatch(.clear) }
    }
  }

  func record<Input, State>(
    _ input: Input,
    before: State? = nil,
    state: State,
    dispatcher: MiddlewareDispatcher<Input> = .none
  ) -> MiddlewareRecord<Input, State> {
    MiddlewareRecord(
      input: input,
      stateBefore: before,
      state: state,
      sequence: 4,
      time: .zero,
      dispatcher: dispatcher
    )
  }

  let extract: @Sendable (AppAction) -> CartAction? = {
    if case .cart(let action) = $0 { action } else { nil }
  }

  @Test func aStatePullbackSeesTheChildState() {
    let seen = Journal<String>()
    let lifted: any Middleware<CartAction, AppState> = CartMiddleware(
      seen: seen,
      wantsStateBefore: true
    )
    .pullback(state: \AppState.cart)
    let before = AppState()
    let after = AppState(cart: Cart(items: ["milk"]))

    #expect(lifted.intercept(.add("apple"), state: before) == .add("pear"))
    lifted.process(record(.add("milk"), before: before, state: after))

    #expect(
      seen.values == [
        "intercept add(\"apple\") with []",
        "process add(\"milk\") #4: [] → [\"milk\"]",
      ]
    )
  }

  @Test func aPullbackWantsTheStateBeforeIfTheChildDoes() {
    let seen = Journal<String>()
    let plain = CartMiddleware(seen: seen).pullback(state: \AppState.cart)
    let wanting = CartMiddleware(seen: seen, wantsStateBefore: true)
      .pullback(state: \AppState.cart, input: extract, embed: AppAction.cart)

    #expect(!plain.wantsStateBefore)
    #expect(wanting.wantsStateBefore)
    #expect(MiddlewareStack<AppAction, AppState>([wanting]).wantsStateBefore)
  }

  @Test func anInputPullbackInterceptsOnlyTheChildsInputs() {
    let seen = Journal<String>()
    let lifted = CartMiddleware(seen: seen)
      .pullback(state: \AppState.cart, input: extract, embed: AppAction.cart)
    let state = AppState(cart: Cart(items: ["milk"]))

    #expect(lifted.intercept(.signOut, state: state) == .signOut)
    #expect(lifted.intercept(.cart(.add("apple")), state: state) == .cart(.add("pear")))
    #expect(lifted.intercept(.cart(.add("nothing")), state: state) == nil)
    #expect(lifted.intercept(.cart(.clear), state: state) == .cart(.clear))
    #expect(
      seen.values == [
        "intercept add(\"apple\") with [\"milk\"]",
        "intercept add(\"nothing\") with [\"milk\"]",
        "intercept clear with [\"milk\"]",
      ]
    )
  }

  @Test func anInputPullbackProcessesOnlyTheChildsInputs() {
    let seen = Journal<String>()
    let lifted = CartMiddleware(seen: seen)
      .pullback(state: \AppState.cart, input: extract, embed: AppAction.cart)

    lifted.process(record(.signOut, state: AppState()))
    lifted.process(record(.cart(.clear), state: AppState()))

    #expect(seen.values == ["process clear #4: - → []"])
  }

  @Test func anInputPullbackDispatchesParentInputs() {
    let dispatched = Journal<AppAction>()
    let lifted = CartMiddleware(seen: Journal())
      .pullback(state: \AppState.cart, input: extract, embed: AppAction.cart)

    lifted.process(
      record(
        .cart(.add("checkout")),
        state: AppState(cart: Cart(items: ["checkout"])),
        dispatcher: MiddlewareDispatcher { dispatched.append($0) }
      )
    )

    #expect(dispatched.values == [.cart(.clear)])
  }

  @Test func anInputOnlyPullbackKeepsTheState() {
    struct Counting: Middleware {
      let seen: Journal<String>
      func process(event: CartAction, state: Int) { seen.append("\(event) at \(state)") }
    }
    let seen = Journal<String>()
    let lifted = Counting(seen: seen)
      .pullback(state: \Int.self, input: extract, embed: AppAction.cart)

    lifted.process(record(.cart(.clear), state: 3))
    lifted.process(record(.signOut, state: 4))

    #expect(seen.values == ["clear at 3"])
  }

  @Test func aPulledBackMiddlewareRunsInAnArchitecture() {
    let seen = Journal<String>()
    // Written as the module's documentation shows it.
    let cart = CartMiddleware(seen: seen).pullback(
      state: \AppState.cart,
      input: { if case .cart(let action) = $0 { action } else { nil } },
      embed: AppAction.cart
    )
    let app = MiniArchitecture<AppAction, AppState>(
      state: AppState(),
      middlewares: [cart]
    ) { state, action in
      switch action {
      case .cart(.add(let item)): state.cart.items.append(item)
      case .cart(.clear): state.cart.items = []
      case .signOut: state.user = ""
      }
    }

    app.send(.cart(.add("apple")))
    app.send(.signOut)
    app.send(.cart(.add("checkout")))

    #expect(app.state.cart.items == [])
    #expect(app.state.user == "")
    #expect(
      seen.values == [
        "intercept add(\"apple\") with []",
        "process add(\"pear\") #1: - → [\"pear\"]",
        "intercept add(\"checkout\") with [\"pear\"]",
        "process add(\"checkout\") #3: - → [\"pear\", \"checkout\"]",
        "intercept clear with [\"pear\", \"checkout\"]",
        "process clear #4: - → []",
      ]
    )
  }
}
