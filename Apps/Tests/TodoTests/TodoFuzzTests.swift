import AppSupport
import AppTestSupport
import ArgumentParser
import CascadeTesting
import Foundation
import Testing
import TodoCore

@testable import todo

/// Seeded random command lines against `todo`'s argument parser, its line parser
/// and its interactive loop, in-process: nothing crashes, and every input either parses or
/// fails with a message.
@Suite struct TodoFuzzTests {
  static let verbs = [
    "add", "list", "ls", "done", "undone", "toggle", "edit", "rm", "delete", "mv", "move", "undo",
    "redo", "search", "help", "shell", "1", "2",
  ]
  static let flags = [
    "--db", "--architecture", "--to", "--done", "--active", "--all", "--search", "--json",
    "store", "reactor", "feedback",
  ]

  // 40 command lines: one costs ~0.14 s of a debug build (ArgumentParser's definitions of
  // todo's ten subcommands, built again for each), 15 times rpg's.
  @Test func randomArgumentsParseOrFailWithAMessage() async {
    let outcome = await Fuzz.run(
      Fuzz(seed: 21, verbs: Self.verbs + ["import", "export"], flags: Self.flags, longest: 256),
      count: 40
    ) {
      $0.arguments()
    } parse: { (arguments: [String]) -> String? in
      do {
        _ = try Todo.parseAsRoot(arguments)
        return nil
      } catch {
        return Todo.message(for: error)
      }
    }
    #expect(outcome.silent.isEmpty, "no message for \(outcome.silent)")
    #expect(outcome.accepted > 1)
  }

  @Test func randomLinesParseOrFailWithAMessage() async {
    let fuzz = Fuzz(seed: 22, verbs: Self.verbs + ["import", "export"], flags: Self.flags)
    let outcome = await Fuzz.run(fuzz, count: 1_500) {
      $0.line()
    } parse: { (line: String) -> String? in
      do throws(TodoCommandLineError) {
        // A blank line parses to nothing: neither accepted nor refused.
        return try TodoCommandLine.parse(line) != .nothing ? nil : "(nothing)"
      } catch {
        return error.description
      }
    }
    #expect(outcome.silent.isEmpty, "no message for \(outcome.silent)")
    #expect(outcome.accepted > 100)
  }
}

/// The interactive loop in-process, on every architecture: it creates stores, reactors and
/// loops, so it runs under the resource check (one at a time with the other checked suites).
@Suite(.checksResources) struct TodoLoopFuzzTests {
  /// The interactive loop, fed random lines on every architecture, reads to the end of its
  /// input, and the database is consistent afterwards: the service's state is what the file
  /// holds.
  @Test(arguments: Architecture.allCases)
  func theInteractiveLoopSurvivesRandomLines(_ architecture: Architecture) async throws {
    try await withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("todo.sqlite").path
      let options = try Options.parse(["--db", path, "--architecture", architecture.rawValue])
      var fuzz = Fuzz(seed: 23, verbs: TodoFuzzTests.verbs + ["add", "add", "done", "rm"])
      var lines = ["add first", "add second"]
      for _ in 0..<300 {
        let line = fuzz.line()
        switch try? TodoCommandLine.parse(line) {
        // Files are kept out (a random name could be anything on this machine), and `quit`
        // for the end.
        case .importFile?, .exportFile?, .quit?: lines.append("list")
        default: lines.append(line)
        }
      }
      lines.append("quit")
      do {
        let session = try Session(options)
        var remaining = lines[...]
        try await Interactive.loop(session: session, prompt: false) { remaining.popFirst() }
        #expect(remaining.isEmpty)
        let state = try await session.service.perform(.reload, timeout: .seconds(30))
        let stored = try TodoDatabase(path: path).load()
        #expect(state.tasks == stored.tasks)
        #expect(state.tasks.map(\.position) == Array(0..<state.tasks.count))
      }
    }
  }
}
