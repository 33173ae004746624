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

// MARK: - The Core

// Port changes beyond imports (the Core):
// 1. `RPGState()` → `RPGState(player: …, monsters: Monsters())`: the seed's `RPGState` has no
//    defaults, so `RPGState()` does not compile in the seed either.
// 2. The three middlewares are not in the seed; they are written here as recorders. The seed's
//    `AnalyticsMiddleware` shadows `CascadeMiddleware.AnalyticsMiddleware` in this file (a local
//    declaration wins over an imported one), so the seed's name still works.
private enum App {
  static let sharedCore = Core(
    state: RPGState(player: Player(name: "Ada", level: 1), monsters: Monsters()),
    middlewares: [
      ReachabilityMiddleware(),
      ErrorLogger(),
      AnalyticsMiddleware(),
    ]
  )
}

private let seen = Recorder<String>()

private struct ReachabilityMiddleware: Middleware {
  func process(event: any Event, state: RPGState) { seen.append("reachability") }
}

private struct ErrorLogger: Middleware {
  func process(event: any Event, state: RPGState) { seen.append("errors") }
}

private struct AnalyticsMiddleware: Middleware {
  func process(event: any Event, state: RPGState) { seen.append("analytics") }
}

// Port changes beyond imports (the view controller):
// 1. UIKit is gone: `UIViewController`, `@IBOutlet weak var levelLabel: UILabel!`, `super.…` and
//    `@IBAction` → a `@MainActor final class` with `levelLabel: Label` and plain methods (a
//    `Subscriber` is a main-actor class protocol; `final` because the test class is not
//    subclassed).
// 2. `extension ViewController: Reactor.Subscriber` → `extension PlayerViewController:
//    CascadeStore.Subscriber`: the module is `CascadeStore`, and the seed's `ViewController`
//    is a typo for `PlayerViewController`.
// 3. `String(state.level)` → `String(state.player.level)`: `RPGState` has no `level` (a seed bug).
// 4. `var core = App.sharedCore` → `var core: Core<RPGState>` set by `init(core:)`: the test uses a
//    fresh core so its expectations do not depend on other tests.
@MainActor
private final class Label {
  var text: String?
}

@MainActor
private final class PlayerViewController {
  var core: Core<RPGState>
  var levelLabel: Label = Label()

  init(core: Core<RPGState>) {
    self.core = core
  }

  func viewDidAppear(_ animated: Bool) {
    core.add(subscriber: self)
  }

  func viewDidDisappear(_ animated: Bool) {
    core.remove(subscriber: self)
  }

  func didPressLevelUp() {
    core.fire(event: LevelUp())
  }
}

extension PlayerViewController: CascadeStore.Subscriber {
  func update(with state: RPGState) {
    levelLabel.text = String(state.player.level)
  }
}

// MARK: - Commands

/// Not in the seed: the event `CreatePlayer` fires.
private struct AddPlayer: Event {
  var player: Player
}

/// Foundation's `URLSession`, faked: a data task answers when resumed, recording the request.
private final class URLSession: Sendable {
  static let shared = URLSession()
  let requests = Recorder<String>()

  struct DataTask {
    let resume: () -> Void
  }

  func dataTask(
    with request: String,
    completionHandler: @escaping (String?, String?, (any Error)?) -> Void
  ) -> DataTask {
    DataTask(resume: { [requests] in
      requests.append(request)
      completionHandler("{}", "201", nil)
    })
  }
}

extension Player {
  /// Not in the seed: the request `CreatePlayer` sends.
  func createRequest() -> String { "POST /players/\(name)" }
}

// Port changes beyond imports (`CreatePlayer`): none. The fake `URLSession` above stands in for
// Foundation's (no networking in a unit test), and `AddPlayer` and `createRequest()`, which the
// seed uses without showing, are written above.
private struct CreatePlayer: Command {
  var session = URLSession.shared
  var player: Player

  func execute(state: RPGState, core: Core<RPGState>) {
    let task = session.dataTask(with: player.createRequest()) { data, response, error in
      // handle response appropriately
      // then fire an update back to the Core
      core.fire(event: AddPlayer(player: player))
    }
    task.resume()
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

  @Test @MainActor func theSharedCoreAndItsViewController() async {
    let core = App.sharedCore
    let viewController = PlayerViewController(core: core)
    viewController.viewDidAppear(true)
    await core.settle()
    await mainQueueDrained()
    #expect(viewController.levelLabel.text == "1")

    viewController.didPressLevelUp()
    await core.settle()
    await mainQueueDrained()
    #expect(viewController.levelLabel.text == "2")
    #expect(seen.values == ["reachability", "errors", "analytics"])

    viewController.viewDidDisappear(true)
    core.fire(event: LevelUp())
    await core.settle()
    #expect(core.state.player.level == 3)
    await mainQueueDrained()
    #expect(viewController.levelLabel.text == "2")
  }

  @Test func aCommandFiresAnEventBack() async {
    let added = Recorder<String>()
    let core = Core(
      state: RPGState(player: Player(name: "Ada", level: 1), monsters: Monsters()),
      middlewares: [PlayerLog(added: added)]
    )
    let myNewPlayer = Player(name: "Grace", level: 1)

    // to fire a command
    core.fire(command: CreatePlayer(player: myNewPlayer))
    await core.finish()

    #expect(added.values == ["Grace"])
    #expect(URLSession.shared.requests.values.contains("POST /players/Grace"))
  }
}

/// Records the players `AddPlayer` events bring (the seed leaves `AddPlayer`'s reduction out).
private struct PlayerLog: Middleware {
  let added: Recorder<String>

  func process(event: any Event, state: RPGState) {
    if let event = event as? AddPlayer { added.append(event.player.name) }
  }
}
