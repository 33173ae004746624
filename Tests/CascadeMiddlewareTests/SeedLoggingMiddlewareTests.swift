import CascadeMiddleware
import CascadeStore
import CascadeStreams
import CascadeTesting
import Testing

/// The seed's LoggingMiddleware (000, Reactor: Store/RPG), as written there, on a real Core.
@Suite(.checksResources)
struct SeedLoggingMiddlewareTests {
  struct LevelUp: Event {}
  struct Rest: Event {}

  struct RPGState: CascadeStore.State {
    var level = 1

    mutating func react(to event: any Event) {
      if event is LevelUp { level += 1 }
    }
  }

  struct LoggingMiddleware: Middleware {
    let printed: Journal<String>

    func process(event: any Event, state: RPGState) {
      switch event {
      case _ as LevelUp:
        printed.append("Leveled Up!")
      default:
        break
      }
    }
  }

  @Test func theSeedLoggingMiddlewareOnACore() {
    let printed = Journal<String>()
    let core = Core(
      state: RPGState(),
      middlewares: [LoggingMiddleware(printed: printed)],
      scheduler: ImmediateScheduler.instance
    )

    core.fire(event: LevelUp())
    core.fire(event: Rest())
    core.fire(event: LevelUp())

    #expect(printed.values == ["Leveled Up!", "Leveled Up!"])
    #expect(core.state.level == 3)
  }
}
