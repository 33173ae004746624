import AppSupport
import Foundation
import GRDB
import Testing
import TodoCore

/// Two `todo` processes adding to one database at once: each acknowledges exactly the rows its
/// own transactions committed, never the other's.
@Suite struct TodoConcurrentAddExecutableTests {
  /// One round per pair of architectures.
  static let rounds = 3
  static let addsPerProcess = 300

  /// Proves that every acknowledgement names the row its process committed: 3 rounds, each on a
  /// new database that the two processes create together, of two shells adding 300 tasks each at
  /// once (each on its own architecture, every pair of architectures in turn); every `added`
  /// line is checked against the row the database holds under its id.
  @Test(
    .enabled(if: TodoExecutable.url != nil, "the todo executable was not found next to the tests")
  )
  func twoProcessesEachAcknowledgeTheRowsTheyCommitted() async throws {
    try await withTemporaryDirectory { directory in
      let architectures = Architecture.allCases
      for round in 1...Self.rounds {
        let database = "round\(round).sqlite"
        func shell(_ name: String, _ architecture: Architecture) async throws -> TodoRun {
          let input = (1...Self.addsPerProcess).map { "add \(name)\(round)-\($0)\n" }.joined()
          return try await TodoExecutable.run(
            ["--db", database, "--architecture", architecture.rawValue],
            input: input,
            in: directory,
            timeout: .seconds(600)
          )
        }
        async let first = shell("A", architectures[round % 3])
        async let second = shell("B", architectures[(round + 1) % 3])
        let runs = try await [("A", first), ("B", second)]

        let queue = try DatabaseQueue(path: directory.appendingPathComponent(database).path)
        let rows = try await queue.read { db in
          try Row.fetchAll(db, sql: "SELECT id, title FROM task").map { row in
            (row["id"] as Int, row["title"] as String)
          }
        }
        try queue.close()
        let stored = Dictionary(uniqueKeysWithValues: rows)
        #expect(stored.count == 2 * Self.addsPerProcess, "round \(round)")

        var acknowledged: Set<Int> = []
        for (name, run) in runs {
          #expect(run.status == 0, "round \(round), \(name): \(run.errors)")
          #expect(run.errors.isEmpty, "round \(round), \(name)")
          let lines = run.output.split(separator: "\n")
          #expect(lines.count == Self.addsPerProcess, "round \(round), \(name)")
          for (index, line) in lines.enumerated() {
            // The acknowledgement of an add: `added #12 "Buy milk"`.
            guard let match = line.wholeMatch(of: /added #(\d+) "(.+)"/), let id = Int(match.1)
            else {
              Issue.record("round \(round), \(name): \(line) is not an acknowledgement")
              continue
            }
            let title = "\(name)\(round)-\(index + 1)"
            #expect(match.2 == title, "round \(round), \(name): \(line)")
            #expect(
              stored[id] == title,
              "round \(round), \(name): \(line), but #\(id) is \(stored[id] ?? "absent")"
            )
            #expect(acknowledged.insert(id).inserted, "round \(round): #\(id) acknowledged twice")
          }
        }
        #expect(acknowledged == Set(stored.keys), "round \(round)")
      }
    }
  }
}
