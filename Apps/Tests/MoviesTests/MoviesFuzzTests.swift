import AppSupport
import AppTestSupport
import ArgumentParser
import CascadeTesting
import Foundation
import MoviesCore
import MoviesServer
import Testing

@testable import movies

/// Seeded random command lines against `movies`' argument parser, its browse
/// keys and its browse loop, in-process: nothing crashes, and every input either parses or
/// fails with a message.
@Suite struct MoviesFuzzTests {
  static let verbs = ["browse", "list", "serve", "n", "next", "r", "t", "retry", "q", "refresh"]
  static let flags = [
    "--pages", "--all", "--json", "--api", "--api-key", "--architecture", "--timeout", "--retries",
    "--catalog", "--fail-rate", "--latency", "--seed", "--port", "--host", "--malformed-page",
    "--hang-page", "store", "reactor", "feedback", "http://127.0.0.1:8080",
  ]

  @Test func randomArgumentsParseOrFailWithAMessage() async {
    let outcome = await Fuzz.run(
      Fuzz(seed: 31, verbs: Self.verbs, flags: Self.flags, longest: 256),
      count: 150
    ) {
      $0.arguments()
    } parse: { (arguments: [String]) -> String? in
      do {
        _ = try MoviesCommand.parseAsRoot(arguments)
        return nil
      } catch {
        return MoviesCommand.message(for: error)
      }
    }
    #expect(outcome.silent.isEmpty, "no message for \(outcome.silent)")
    #expect(outcome.accepted > 6)
  }

  @Test func randomKeysParseOrFailWithAMessage() async {
    let fuzz = Fuzz(seed: 32, verbs: Self.verbs)
    let outcome = await Fuzz.run(fuzz, count: 1_500) { fuzz in
      fuzz.roll(0...1) == 0 ? fuzz.line() : fuzz.token()
    } parse: { (line: String) -> String? in
      do throws(BrowseKey.Unknown) {
        _ = try BrowseKey.parse(line)
        return nil
      } catch {
        return error.description
      }
    }
    #expect(outcome.silent.isEmpty, "no message for \(outcome.silent)")
    #expect(outcome.accepted > 150)
  }
}

/// The interactive loop in-process, on every architecture: it creates stores, reactors and
/// loops, so it runs under the resource check (one at a time with the other checked suites).
@Suite(.checksResources) struct MoviesLoopFuzzTests {
  /// The browse loop, fed random keys against a server that fails one page in five, reads to
  /// the end of its input and leaves the service idle.
  @Test(arguments: Architecture.allCases)
  func theBrowseLoopSurvivesRandomKeys(_ architecture: Architecture) async throws {
    try await withServer(faults: ServerFaults(failureRate: 0.2, seed: 3)) { _, url in
      // Safety nets, wide for a machine kept busy (the CI's flake check): a page answers at
      // once from the in-process server when the machine is idle.
      let client = try MoviesClient(baseURL: url, timeout: .seconds(120))
      let movies = makeMovies(architecture, client: client)
      var fuzz = Fuzz(seed: 33, verbs: ["n", "n", "next", "r", "t", "", "retry", "refresh"])
      var lines: [String] = []
      for _ in 0..<200 {
        let line = fuzz.roll(0...2) == 0 ? fuzz.line() : fuzz.pick(fuzz.verbs)
        // `quit` would end the loop early.
        lines.append((try? BrowseKey.parse(line)) == .quit ? "n" : line)
      }
      var remaining = lines[...]
      try await Browse.browse(movies, patience: .seconds(300)) { remaining.popFirst() }
      #expect(remaining.isEmpty)
      #expect(!movies.currentState.isLoading)
    }
  }
}
