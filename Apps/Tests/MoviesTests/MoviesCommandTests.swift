import AppTestSupport
import Foundation
import Testing

/// The `movies` executable end to end: its output, and its errors on bad input.
@Suite struct MoviesCommandTests {
  /// The built `movies`, beside the test bundle.
  static let binary: URL? = builtProduct(named: "movies")

  struct Outcome {
    var status: Int32
    var output: String
    var errors: String
  }

  /// Runs `movies` with `arguments` and `input` on standard input, and waits for it to exit
  /// without blocking a thread; killed after 60 seconds, which fails the test.
  func movies(_ arguments: [String], input: String = "") async throws -> Outcome {
    let binary = try #require(Self.binary, "build the movies product first (swift build)")
    let run = try await runChild(binary, arguments, input: .text(input))
    #expect(!run.timedOut && !run.signalled, "movies \(arguments): \(run.summary)")
    return Outcome(status: run.status, output: run.outputText, errors: run.errorText)
  }

  @Test(arguments: ["store", "reactor", "feedback"])
  func listsTwoPages(_ architecture: String) async throws {
    let outcome = try await movies(["list", "--pages", "2", "--architecture", architecture])
    #expect(outcome.status == 0)
    let lines = outcome.output.split(separator: "\n")
    #expect(lines.count == 40)
    #expect(lines.first == "   1. The Shawshank Redemption (1994)  8.7")
  }

  @Test func listsJSON() async throws {
    let outcome = try await movies(["list", "--pages", "1", "--json"])
    #expect(outcome.status == 0)
    let films =
      try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [[String: Any]]
    #expect(films?.count == 20)
    #expect(films?.first?["release_date"] as? String == "1994")
  }

  @Test func browsesAndQuits() async throws {
    let outcome = try await movies(
      ["browse", "--architecture", "reactor"],
      input: "n\nbogus\nr\nq\n"
    )
    #expect(outcome.status == 0)
    #expect(outcome.output.contains("Page 2 of 17"))
    #expect(outcome.output.contains("  21. Life Is Beautiful (1997)"))
    #expect(outcome.errors.contains("unknown command 'bogus'"))
    #expect(outcome.output.components(separatedBy: "Page 1 of 17").count == 3)  // first, refresh
  }

  @Test func browseEndsCleanlyWhenInputCloses() async throws {
    let outcome = try await movies(["browse"])
    #expect(outcome.status == 0)
    #expect(outcome.output.contains("Page 1 of 17"))
  }

  @Test(arguments: [
    (["list", "--pages", "1", "--api", "notaurl"], "invalid API URL 'notaurl'"),
    (["list", "--pages", "1", "--api", "http://127.0.0.1:1"], "cannot reach the server"),
    (["list"], "--pages N or --all"),
    (["list", "--all", "--architecture", "mvc"], "The value 'mvc' is invalid for '--architecture"),
    (["list", "--all", "--catalog", "/nonexistent/films.csv"], "/nonexistent/films.csv"),
  ])
  func failsOnBadInput(_ arguments: [String], _ message: String) async throws {
    let outcome = try await movies(arguments)
    #expect(outcome.status != 0)
    #expect(outcome.errors.contains(message))
    #expect(outcome.output.isEmpty)
  }

  @Test func failsOnAMalformedCatalog() async throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("movies-\(UUID().uuidString).csv")
    try Data("id,title,release_date,overview,vote_average\n1,A,2000\n".utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let outcome = try await movies(["list", "--all", "--catalog", file.path])
    #expect(outcome.status != 0)
    #expect(outcome.errors.contains("line 2: expected 5 fields, got 3"))
  }
}
