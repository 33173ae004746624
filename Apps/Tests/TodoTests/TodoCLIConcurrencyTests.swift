import Foundation
import Testing
import TodoCore

/// Two `todo` processes writing the same database file at once lose nothing.
@Suite struct TodoCLIConcurrencyTests {
  @Test func twoProcessesWritingAtOnceLoseNothing() async throws {
    try await withTemporaryDirectory { directory in
      let setUp = try await TodoExecutable.run(
        ["--db", "todo.sqlite", "add", "seed"],
        in: directory
      )
      #expect(setUp.status == 0, "\(setUp.errors)")
      let count = 25
      func session(_ name: String, _ architecture: String) -> String {
        (1...count).map { "add \(name)\($0)\n" }.joined() + "done 1\nmv 1 --to 2\nlist\n"
      }
      async let first = TodoExecutable.run(
        ["--db", "todo.sqlite", "--architecture", "reactor"],
        input: session("A", "reactor"),
        in: directory
      )
      async let second = TodoExecutable.run(
        ["--db", "todo.sqlite", "--architecture", "feedback"],
        input: session("B", "feedback"),
        in: directory
      )
      // And single commands, a process each, at the same time.
      async let singles: [TodoRun] = {
        var runs: [TodoRun] = []
        for index in 1...5 {
          runs.append(
            try await TodoExecutable.run(
              ["--db", "todo.sqlite", "add", "C\(index)"],
              in: directory
            )
          )
        }
        return runs
      }()
      for run in try await [first, second] + singles {
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors.isEmpty)
      }
      let list = try await TodoExecutable.run(
        ["--db", "todo.sqlite", "list", "--json"],
        in: directory
      )
      let tasks = try JSONDecoder().decode([TodoTask].self, from: Data(list.output.utf8))
      let expected =
        ["seed"] + (1...count).flatMap { ["A\($0)", "B\($0)"] } + (1...5).map { "C\($0)" }
      #expect(Set(tasks.map(\.title)) == Set(expected))
      #expect(tasks.count == expected.count)
      #expect(Set(tasks.map(\.id)).count == tasks.count)
      #expect(tasks.map(\.position) == Array(0..<tasks.count))
      #expect(tasks.first { $0.title == "seed" }?.done == true)
    }
  }
}
