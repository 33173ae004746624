import AppSupport
import AppTestSupport
import ArgumentParser
import CascadeTesting
import Foundation
import RPGCore
import Testing

@testable import rpg

/// Seeded random command lines against `rpg`'s argument parser, its line parser
/// and its interactive loop, in-process: nothing crashes, and every input either parses or
/// fails with a message.
@Suite struct RPGFuzzTests {
  static let verbs = [
    "new", "play", "show", "help", "explore", "attack", "a", "e", "potion", "rest", "flee", "save",
    "load", "quit", "q", "s", "?", "Ada",
  ]
  static let flags = [
    "--name", "--seed", "--force", "--save", "--json", "--architecture", "--script", "--help",
    "-h", "store", "reactor", "feedback", "-f",
  ]

  @Test func randomArgumentsParseOrFailWithAMessage() async {
    let outcome = await Fuzz.run(
      Fuzz(seed: 11, verbs: Self.verbs, flags: Self.flags, longest: 256),
      count: 200
    ) {
      $0.arguments()
    } parse: { (arguments: [String]) -> String? in
      do {
        _ = try RPGCommand.parseAsRoot(arguments)
        return nil
      } catch {
        return RPGCommand.message(for: error)
      }
    }
    #expect(outcome.silent.isEmpty, "no message for \(outcome.silent)")
    #expect(outcome.accepted > 18)
  }

  @Test func randomLinesParseOrFailWithAMessage() async {
    let fuzz = Fuzz(seed: 12, verbs: Self.verbs, flags: Self.flags)
    let outcome = await Fuzz.run(fuzz, count: 1_500) {
      $0.line()
    } parse: { (line: String) -> String? in
      do throws(GameCommandError) {
        // A blank line parses to nothing: neither accepted nor refused.
        return try GameCommand.parse(line) != nil ? nil : "(nothing)"
      } catch {
        return error.description
      }
    }
    #expect(outcome.silent.isEmpty, "no message for \(outcome.silent)")
    #expect(outcome.accepted > 80)
  }
}

/// The interactive loop in-process, on every architecture: it creates stores, reactors and
/// loops, so it runs under the resource check (one at a time with the other checked suites).
@Suite(.checksResources) struct RPGLoopFuzzTests {
  /// The interactive loop, fed random lines on every architecture, reads to the end of its
  /// input (or a `quit`) without failing; a rejected line leaves the game as it was.
  @Test(arguments: ["store", "reactor", "feedback"])
  func theInteractiveLoopSurvivesRandomLines(_ architecture: String) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let save = directory.file("save.json").path
    let play = try Play.parse(["--save", save, "--json", "--architecture", architecture])
    let session = try Session(options: play.options, recording: play.recording, command: "play")
    var fuzz = Fuzz(seed: 13, verbs: RPGFuzzTests.verbs.filter { $0 != "quit" && $0 != "q" })
    var lines = ["new Ada 5"]
    for _ in 0..<300 {
      var line = fuzz.line()
      // A `quit` would end the loop early; keep it for the end.
      if case .quit? = try? GameCommand.parse(line) { line = "dance" }
      lines.append(line)
    }
    lines.append("quit")
    var remaining = lines[...]
    try await play.runInteractive(session: session) { remaining.popFirst() }
    #expect(remaining.isEmpty)
    #expect(session.game.currentState.game != nil)
    #expect(!session.game.currentState.isBusy)
  }
}
