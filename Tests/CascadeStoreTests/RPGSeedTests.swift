import CascadeMiddleware
import CascadeStore
import CascadeTestSupport
import CascadeTesting
import Testing

// The "Reactor" seed's README example, as close to its own code as Swift 6 allows: the same
// names (State, Event, Core, Subscriber, Command, Middleware), `react(to:)` delegating to
// substates, `fire(event:)`, `fire(command:)`, `add(subscriber:)`, `remove(subscriber:)`.

struct Player: State {
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

struct Monsters: State {
  var names: [String] = []

  mutating func react(to event: any Event) {
    switch event {
    case let spawn as Spawn:
      names.append(spawn.name)
    default:
      break
    }
  }
}

struct RPGState: State {
  var player = Player(name: "Ada", level: 1)
  var monsters = Monsters()
  var players: [String] = []

  mutating func react(to event: any Event) {
    player.react(to: event)
    monsters.react(to: event)
    if let added = event as? AddPlayer { players.append(added.player.name) }
  }
}

struct LevelUp: Event {}
struct Spawn: Event { var name: String }
struct AddPlayer: Event { var player: Player }

/// Stands in for the README's URLSession: "creates" the player remotely, asynchronously.
struct PlayerService: Sendable {
  func create(_ player: Player) async throws -> Player {
    await Task.yield()
    return player
  }
}

struct CreatePlayer: AsyncCommand {
  var session = PlayerService()
  var player: Player

  func execute(state: RPGState, core: Core<RPGState>) async throws {
    let created = try await session.create(player)
    // handle response appropriately, then fire an update back to the Core
    core.fire(event: AddPlayer(player: created))
  }
}

struct LoggingMiddleware: Middleware {
  let printed: Recorder<String>

  func process(event: any Event, state: RPGState) {
    switch event {
    case _ as LevelUp:
      printed.append("Leveled Up!")
    default:
      break
    }
  }
}

@MainActor
final class PlayerViewController: CascadeStore.Subscriber {
  var core: Core<RPGState>
  var levelLabelText: String?

  init(core: Core<RPGState>) {
    self.core = core
  }

  func viewDidAppear() { core.add(subscriber: self) }
  func viewDidDisappear() { core.remove(subscriber: self) }
  func didPressLevelUp() { core.fire(event: LevelUp()) }

  func update(with state: RPGState) {
    levelLabelText = String(state.player.level)
  }
}

@Suite(.checksResources)
struct RPGSeedTests {
  @Test @MainActor func theReadmeGameWorksAsWritten() async {
    let printed = Recorder<String>()
    let core = Core(state: RPGState(), middlewares: [LoggingMiddleware(printed: printed)])
    let viewController = PlayerViewController(core: core)

    viewController.viewDidAppear()
    #expect(viewController.levelLabelText == "1")

    viewController.didPressLevelUp()
    #expect(viewController.levelLabelText == "2")
    #expect(printed.values == ["Leveled Up!"])

    core.fire(event: Spawn(name: "Goblin"))
    #expect(core.state.monsters.names == ["Goblin"])

    core.fire(command: CreatePlayer(player: Player(name: "Grace", level: 1)))
    // The asynchronous command has ended and the event it fired is reduced.
    await core.finish()
    #expect(core.state.players == ["Grace"])

    viewController.viewDidDisappear()
    core.fire(event: LevelUp())
    #expect(viewController.levelLabelText == "2")
    #expect(core.state.player.level == 3)
    #expect(printed.values == ["Leveled Up!", "Leveled Up!"])
  }
}
