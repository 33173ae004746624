/// Application state that changes by reacting to events: the state of a ``Core``, the "Reactor"
/// pattern's `State`.
///
/// A state is a value type; composing states composes reactions, a parent delegating to its
/// children.
///
/// ```swift
/// struct Player: CoreState {
///   var name: String
///   var level: Int
///
///   mutating func react(to event: any CoreEvent) {
///     switch event {
///     case _ as LevelUp: level += 1
///     default: break
///     }
///   }
/// }
///
/// struct RPGState: CoreState {
///   var player: Player
///   var monsters: Monsters
///
///   mutating func react(to event: any CoreEvent) {
///     player.react(to: event)
///     monsters.react(to: event)
///   }
/// }
/// ```
///
/// A store of such a state is a ``Core``: `Core(initialState: RPGState(…), middlewares: […])`.
/// The seed spells the protocol `State`, and that spelling compiles too (see
/// `SeedSpellings.swift`); `CoreState` is the one that never collides with a generic parameter
/// named `State`.
public protocol CoreState: Sendable {
  /// Updates the state in place in reaction to `event`.
  mutating func react(to event: any CoreEvent)
}

/// Something that happened and may change the state of a ``Core``: the "Reactor" pattern's
/// `Event` (which spelling compiles too, see `SeedSpellings.swift`).
///
/// ```swift
/// struct LevelUp: CoreEvent {}
/// struct Update<T: Sendable>: CoreEvent { var newValue: T }
/// ```
public protocol CoreEvent: Sendable {}

/// A store whose state reacts to events: the "Reactor" pattern's `Core`.
///
/// `Core<RPGState>` is `Store<RPGState, any CoreEvent>`, so every store feature (subscribers,
/// commands, middleware, streams, scoping) is available, with the seed's names too:
/// `fire(event:)`, `fire(command:)`, `add(subscriber:)`, `remove(subscriber:)`.
public typealias Core<Root: CoreState> = Store<Root, any CoreEvent>
