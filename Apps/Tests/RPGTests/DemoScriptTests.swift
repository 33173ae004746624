import AppScenarios
import Foundation
import RPGCore
import Testing

@Suite struct DemoScriptTests {
  /// `Apps/RPG/demo.txt`, the README's scripted demo.
  static let demo = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
    .appendingPathComponent("Apps/RPG/demo.txt")

  @Test func theDemoScriptWinsToLevelThree() throws {
    let commands = try GameCommand.parseScript(String(contentsOf: Self.demo, encoding: .utf8))
    let intents = commands.compactMap { command -> GameIntent? in
      if case .intent(let intent) = command { intent } else { nil }
    }
    let state = Bot.simulate(intents)
    #expect(state.game?.player.level == 3)
    #expect(state.game?.isOver == false)
  }
}
