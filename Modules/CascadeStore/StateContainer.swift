public import CascadeStreams

/// What Store, Reactor and FeedbackLoop have in common, under one name per concept: a state that
/// changes only by processing inputs, one at a time.
///
/// Code written against `StateContainer` works with any of the three architectures — a view
/// model that renders states and sends inputs, a test helper that drives one and waits for it:
///
/// ```swift
/// func render<Container: StateContainer>(_ container: Container) async
/// where Container.State == Counter, Container.Input == CounterAction {
///   container.send(.increment)
///   await container.finish()            // effects ended, what they sent was reduced
///   print(container.currentState.count)
///   for await state in container.states.values { print(state.count) }
/// }
/// ```
///
/// | concept | name |
/// | --- | --- |
/// | the current state | ``currentState`` |
/// | the states as a stream (and as an `AsyncSequence`: `states.values`) | ``states`` |
/// | sending an input | ``send(_:)`` |
/// | waiting until every input sent so far is processed | ``settle()`` |
/// | waiting until every effect has ended and its inputs are processed | ``finish()`` |
/// | ending: effects cancelled, nothing delivered after | ``shutdown()`` |
/// | effects running now | ``effectsInFlight`` |
/// | what goes wrong in the machinery | `diagnostics`, given when the architecture is made |
///
/// The seeds' own spellings stand beside these, each on its architecture and documented as the
/// seed's: a `Core`'s `state` and `fire(event:)` (the Reactor seed), a reactor's `state` stream
/// and `action` input (ReactorKit).
public protocol StateContainer<State, Input>: AnyObject, Sendable {
  /// The state.
  associatedtype State: Sendable
  /// What is sent to change it: a store's actions, a reactor's actions, a loop's events.
  associatedtype Input: Sendable

  /// The current state; safe to read from any thread.
  var currentState: State { get }

  /// The states as a stream: the current state on subscription, then every new one. It never
  /// fails, and completes when the architecture shuts down.
  var states: Observable<State, Never> { get }

  /// Sends an input: processed before `send` returns unless another thread is processing (which
  /// then processes it).
  func send(_ input: Input)

  /// Waits until every input sent so far has been processed; effects in flight are not waited
  /// for.
  func settle() async

  /// Waits until the architecture is at rest: every effect started so far has ended, every input
  /// sent so far (effects' included) has been processed, and none of that started new work.
  func finish() async

  /// Ends the architecture: its effects are cancelled, it accepts no more input, and nothing is
  /// delivered after this returns.
  func shutdown() async

  /// The number of effects running now: a store's asynchronous commands, a reactor's
  /// asynchronous mutations and mutation streams, a loop's feedback effects.
  var effectsInFlight: Int { get }
}
