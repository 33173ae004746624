import CascadeMiddleware
import CascadeStore
import CascadeTestSupport
import CascadeTesting
import Testing

// The "Reactor" seed's examples (seeds/000 and 003), ported with import changes only where that
// compiles. `Tests/CascadeStoreTests/RPGSeedTests.swift` plays the whole game; this file checks
// each snippet as the seed writes it.
//
// Port changes beyond imports:
// 1. `event: Event` → `event: any Event` (in `Player`, `RPGState`, `LoggingMiddleware`): the
//    package enables ExistentialAny, which warns on a bare protocol type (zero warnings allowed).
// 2. `case let _ as LevelUp:` → `case _ as LevelUp:`: Swift warns "'let' pattern has no effect".
// 3. `Update<T>` → `Update<T: Sendable>`: `Event` is `Sendable`, so its stored `T` must be.
// 4. The seed's second `LevelUp` (with `playerID`) is renamed `LevelUpPlayer`: two types of one
//    name cannot share a file. `Monsters` is not in the seed and is written here.
// 5. `LoggingMiddleware` cannot take `state: State` (the seed's existential state): a middleware's
//    `State` is an associated type that must equal the core's root state, so `state: any State`
//    gives "cannot convert value of type 'LoggingMiddleware' to expected element type 'any
//    Middleware<any Event, RPGState>'". The closest port is generic over its own state,
//    `LoggingMiddleware<AppState: State>` with `state: AppState`; `[LoggingMiddleware(…)]`
//    then infers `AppState` from the core. `print` records into `printed` for the test.

// MARK: - State

private struct Player: State {
  var name: String
  var level: Int

  mutating func react(to event: any Event) {
    switch event {
    case _ as LevelUp:
      level += 1
    default:
      break
    }
  }
}

/// Not in the seed: `RPGState` uses it.
private struct Monsters: State {
  var count = 0

  mutating func react(to event: any Event) {
    if let update = event as? Update<Int> { count = update.newValue }
  }
}

private struct RPGState: State {
  var player: Player
  var monsters: Monsters

  mutating func react(to event: any Event) {
    player.react(to: event)
    monsters.react(to: event)
  }
}

// MARK: - Events

private struct LevelUp: Event {}

private struct LevelUpPlayer: Event {
  var playerID: Int
}

private struct Update<T: Sendable>: Event {
  var newValue: T
}

// MARK: - Middleware

private struct LoggingMiddleware<AppState: State>: Middleware {
  let printed: Recorder<String>

  func process(event: any Event, state: AppState) {
    switch event {
    case _ as LevelUp:
      printed.append("Leveled Up!")
    default:
      break
    }
  }
}

// MARK: - Tests

@Suite(.checksResources)
struct ReactorSeedExampleTests {
  @Test @MainActor func theSeedSnippetsOnACore() {
    let printed = Recorder<String>()
    let core = Core(
      state: RPGState(player: Player(name: "Ada", level: 1), monsters: Monsters()),
      middlewares: [LoggingMiddleware(printed: printed)]
    )
    core.fire(event: LevelUp())
    core.fire(event: LevelUpPlayer(playerID: 1))
    core.fire(event: Update(newValue: 3))
    #expect(core.state.player.level == 2)
    #expect(core.state.monsters.count == 3)
    #expect(printed.values == ["Leveled Up!"])
  }
}
