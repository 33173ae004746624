/// Steps through a sequence of inputs state by state, forward, back or to any step: time travel
/// through a recording, from code.
///
/// A time travel holds every state the inputs produce: ``states``[0] is the initial state and
/// ``states``[n] the state after the n-th input. It computes them once, when it is created, from a
/// reducer or by driving a live architecture; stepping only moves ``position``.
///
/// ```swift
/// let recording = try Recording<Action>(contentsOf: url)
/// var travel = TimeTravel(initialState: AppState(), inputs: recording.inputs, reduce: reduce)
/// travel.stepForward()      // position 1: the state after the first input
/// travel.jump(to: 10)       // the state after the tenth input
/// travel.stepBack()         // … after the ninth
/// print(travel.input, travel.state)
///
/// // Or through a fresh store, reactor or feedback loop (which processes on the sending thread):
/// let store = Store(initialState: AppState(), reducer: reduce)
/// let steps = TimeTravel(inputs: recording.inputs, send: store.send, currentState: { store.state })
/// ```
public struct TimeTravel<Input: Sendable, State: Sendable>: Sendable {
  /// The inputs, in order.
  public let inputs: [Input]
  /// Every state: the initial one, then the one after each input.
  public let states: [State]
  /// The step shown: 0 before any input, ``count`` after the last one.
  public private(set) var position: Int

  /// Creates a time travel through `inputs` applied with `reduce`, starting before the first.
  ///
  /// - Parameters:
  ///   - initialState: The state before any input.
  ///   - inputs: The inputs, in order.
  ///   - reduce: The architecture's reducer (for a reactor, one that applies an action's
  ///     mutations).
  public init(
    initialState: State,
    inputs: some Sequence<Input>,
    reduce: (inout State, Input) throws -> Void
  ) rethrows {
    let inputs = Array(inputs)
    var states = [initialState]
    states.reserveCapacity(inputs.count + 1)
    var state = initialState
    for input in inputs {
      try reduce(&state, input)
      states.append(state)
    }
    self.inputs = inputs
    self.states = states
    position = 0
  }

  /// Creates a time travel by sending `inputs` one by one to a live architecture and reading its
  /// state after each.
  ///
  /// The architecture must process each input before `send` returns: a store, a reactor or a
  /// feedback loop processing on the sending thread (their default) does.
  ///
  /// - Parameters:
  ///   - inputs: The inputs, in order.
  ///   - send: Sends one input to the architecture.
  ///   - currentState: Reads the architecture's state.
  public init(
    inputs: some Sequence<Input>,
    send: (Input) -> Void,
    currentState: () -> State
  ) {
    let inputs = Array(inputs)
    var states = [currentState()]
    states.reserveCapacity(inputs.count + 1)
    for input in inputs {
      send(input)
      states.append(currentState())
    }
    self.inputs = inputs
    self.states = states
    position = 0
  }

  /// The number of inputs, which is the last ``position``.
  public var count: Int { inputs.count }

  /// The state at ``position``.
  public var state: State { states[position] }

  /// The input that produced ``state``; `nil` at the initial state.
  public var input: Input? { position == 0 ? nil : inputs[position - 1] }

  /// Whether ``position`` is at the initial state.
  public var isAtStart: Bool { position == 0 }

  /// Whether ``position`` is after the last input.
  public var isAtEnd: Bool { position == count }

  /// Moves one input forward; `false` (and no move) at the end.
  @discardableResult
  public mutating func stepForward() -> Bool {
    guard position < count else { return false }
    position += 1
    return true
  }

  /// Moves one input back; `false` (and no move) at the start.
  @discardableResult
  public mutating func stepBack() -> Bool {
    guard position > 0 else { return false }
    position -= 1
    return true
  }

  /// Moves to `position`, clamped to `0...count`.
  public mutating func jump(to position: Int) {
    self.position = min(max(position, 0), count)
  }

  /// Moves back to the initial state.
  public mutating func rewind() { position = 0 }

  /// Moves to the state after the last input.
  public mutating func fastForward() { position = count }
}
