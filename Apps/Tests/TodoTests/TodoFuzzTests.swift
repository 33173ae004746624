import AppSupport
import AppTestSupport
import ArgumentParser
import CascadeTesting
import Foundation
import Testing
import TodoCore

@testable import todo

/// Thousands of seeded random command lines against `todo`'s argument parser, its line parser
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

  @Test func randomArgumentsParseOrFailWithAMessage() async {
    var fuzz = Fuzz(seed: 21, verbs: Self.verbs + ["import", "export"], flags: Self.flags)
    var parsed = 0
    for _ in 0..<2_000 {
      // CPU-bound for tens of seconds in a debug build: let other tests' tasks run meanwhile
      // (the cooperative pool has one thread per core).
      await Task.yield()
      let arguments = fuzz.arguments()
      do {
        _ = try Todo.parseAsRoot(arguments)
        parsed += 1
      } catch {
        let message = Todo.message(for: error)
        #expect(
          !message.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
          "no message for \(arguments)"
        )
      }
    }
    #expect(parsed > 50)
  }

  @Test func randomLinesParseOrFailWithAMessage() async {
    var fuzz = Fuzz(seed: 22, verbs: Self.verbs + ["import", "export"], flags: Self.flags)
    var parsed = 0
    for _ in 0..<5_000 {
      await Task.yield()
      let line = fuzz.line()
      do {
        if try TodoCommandLine.parse(line) != .nothing { parsed += 1 }
      } catch {
        #expect(!error.description.isEmpty, "no message for \(line.debugDescription)")
      }
    }
    #expect(parsed > 300)
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
