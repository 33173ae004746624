import AppSupport
import CascadeStore
import Foundation
import RPGCore
import Testing

@testable import InspectorLink

/// An inspector lives as long as the app it inspects, not as long as the process: its middleware
/// holds it, and its "replay to here" holds the middleware only weakly.
@Suite struct LiveInspectorLifetimeTests {
  @Test func anInspectorAndItsMiddlewareGoWithTheStoreTheyInspect() async {
    weak var inspected: LiveInspector?
    weak var middleware: LiveInputs<Int, LiveCount>?
    do {
      let inspector = LiveInspector(app: "test", architecture: .store, command: "count")
      let (store, inputs) = inspectedCountStore(inspector)
      for _ in 0..<100 { store.send(1) }
      await store.finish()
      await inputs.published()
      #expect(inspector.stepCount == 100)
      inspected = inspector
      middleware = inputs
    }
    #expect(middleware == nil)
    #expect(inspected == nil)
  }

  @Test(arguments: Architecture.allCases)
  func anInspectedGameLetsGoOfItsInspector(_ architecture: Architecture) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    weak var inspected: LiveInspector?
    do {
      let inspector = LiveInspector(app: "rpg", architecture: architecture, command: "test")
      let game = inspectedGame(architecture, inspector, in: directory)
      game.send(.newGame(name: "Lifetime", seed: 7))
      for intent in [GameIntent.explore, .attack, .rest] { game.send(intent) }
      await game.finish()
      await inspector.caughtUp()
      #expect(inspector.stepCount >= 4)
      inspected = inspector
    }
    #expect(inspected == nil)
  }

  #if os(Linux)
  @Test func theInspectionThreadGoesByItsNameWhileItsAppLives() async throws {
    let inspector = countInspector()
    let (store, inputs) = inspectedCountStore(inspector)
    store.send(1)
    await store.finish()
    await inputs.published()
    // The process's threads as the system names them (other tests' inspections may be among
    // them: a name the system refused would be on none).
    let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
    let names = tasks.compactMap { task in
      try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }
    #expect(names.contains("live-inspection"))
    withExtendedLifetime(store) {}
  }
  #endif
}
