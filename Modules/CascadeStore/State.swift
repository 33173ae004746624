/// Application state that changes by reacting to events: the "Reactor" pattern's `State`.
///
/// A state is a value type; composing states composes reactions, a parent delegating to its
/// children.
///
/// ```swift
/// struct Player: State {
///   var name: String
///   var level: Int
///
///   mutating func react(to event: any Event) {
///     switch event {
///     case _ as LevelUp: level += 1
///     default: break
///     }
///   }
/// }
///
/// struct RPGState: State {
///   var player: Player
///   var monsters: Monsters
///
///   mutating func react(to event: any Event) {
///     player.react(to: event)
///     monsters.react(to: event)
///   }
/// }
/// ```
///
/// A store of such a state is a ``Core``: `Core(state: RPGState(…), middlewares: […])`.
public protocol State: Sendable {
  /// Updates the state in place in reaction to `event`.
  mutating func react(to event: any Event)
}

/// Something that happened and may change the state: the "Reactor" pattern's `Event`.
///
/// ```swift
/// struct LevelUp: Event {}
/// struct Update<T: Sendable>: Event { var newValue: T }
/// ```
public protocol Event: Sendable {}

/// A store whose state reacts to events: the "Reactor" pattern's `Core`.
///
/// `Core<RPGState>` is `Store<RPGState, any Event>`, so every store feature (subscribers,
/// commands, middleware, streams, scoping) is available with the seed's names:
/// `fire(event:)`, `fire(command:)`, `add(subscriber:)`, `remove(subscriber:)`.
public typealias Core<Root: State> = Store<Root, any Event>
