import AppSupport
import AppTestSupport
import ArgumentParser
import CascadeTesting
import Foundation
import RPGCore
import Testing

@testable import rpg

/// Thousands of seeded random command lines against `rpg`'s argument parser, its line parser
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
    var fuzz = Fuzz(seed: 11, verbs: Self.verbs, flags: Self.flags)
    var parsed = 0
    for _ in 0..<2_000 {
      // CPU-bound for tens of seconds in a debug build: let other tests' tasks run meanwhile
      // (the cooperative pool has one thread per core).
      await Task.yield()
      let arguments = fuzz.arguments()
      do {
        _ = try RPGCommand.parseAsRoot(arguments)
        parsed += 1
      } catch {
        let message = RPGCommand.message(for: error)
        #expect(
          !message.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
          "no message for \(arguments)"
        )
      }
    }
    #expect(parsed > 50)
  }

  @Test func randomLinesParseOrFailWithAMessage() async {
    var fuzz = Fuzz(seed: 12, verbs: Self.verbs, flags: Self.flags)
    var parsed = 0
    for _ in 0..<5_000 {
      await Task.yield()
      let line = fuzz.line()
      do {
        if try GameCommand.parse(line) != nil { parsed += 1 }
      } catch {
        #expect(!error.description.isEmpty, "no message for \(line.debugDescription)")
      }
    }
    #expect(parsed > 300)
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
