import AppHarness
import AppScenarios
import AppSupport
import CascadeStreams
import CascadeTesting
import CompareKit
import Foundation
import RPGCore
import Testing

/// The repository this test file is in (Apps/Tests/CompareTests/ in it).
private let repository = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// The comparison end to end, on the real apps and on an app whose feedback loop misbehaves.
@Suite(.checksResources, .serialized) struct ComparisonTests {
  @Test func theRPGIsIdenticalOnEveryArchitecture() async throws {
    let comparison = Comparison(root: repository, iterations: 1)
    let app = try await comparison.measure(RPGComparison())
    #expect(app.name == "RPG")
    #expect(app.scenarios.count == 3)
    #expect(app.architectures.map(\.architecture) == Architecture.allCases)
    for result in app.architectures {
      #expect(result.identicalStates, "\(result.architecture): \(result.difference ?? "")")
      #expect(result.states > 3)
      #expect(result.linesOfCode > 10)
      #expect(result.replaysPerSecond > 0)
    }
    let store = try #require(app.architectures.first)
    let file = repository.appendingPathComponent("Apps/RPG/RPGCore/StoreGame.swift")
    #expect(store.linesOfCode == (try LineCounter.count(file: file)))
  }

  @Test func theTodoListIsIdenticalOnEveryArchitectureAndLeavesNoFile() async throws {
    // A folder of this test's own: other tests, or another run of the suite, may make
    // comparison folders in the shared temporary directory meanwhile.
    let parent = FileManager.default.temporaryDirectory
      .appendingPathComponent("comparison-test-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: parent) }
    let comparison = Comparison(root: repository, iterations: 1, temporaryDirectory: parent)
    let app = try await comparison.measure(TodoComparison())
    #expect(app.architectures.map(\.identicalStates) == [true, true, true])
    #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == [])
  }

  @Test func theMovieListIsIdenticalOnEveryArchitecture() async throws {
    let app = try await Comparison(root: repository, iterations: 1).measure(MoviesComparison())
    #expect(app.architectures.map(\.identicalStates) == [true, true, true])
  }

  @Test func anArchitectureWithOtherStatesFailsTheComparison() async throws {
    let app = try await Comparison(root: repository, iterations: 1).measure(SkewedRPG())
    #expect(app.architectures.map(\.identicalStates) == [false, false, false])
    #expect(
      app.architectures.last?.difference?.hasPrefix("a new game: differs from store at state")
        == true
    )
  }

  @Test func aMissingImplementationFileIsReported() async throws {
    var app = SkewedRPG()
    app.missingFile = true
    await #expect(throws: Comparison.UnreadableSource.self) {
      _ = try await Comparison(root: repository, iterations: 1).measure(app)
    }
  }
}

/// The RPG, except that the feedback loop starts every game on another seed.
private struct SkewedRPG: ComparedApp {
  var missingFile = false

  var name: String { "Skewed" }

  var implementationFiles: [Architecture: [String]] {
    missingFile
      ? [.store: ["Apps/RPG/RPGCore/NoSuchGame.swift"]]
      : [.store: ["Apps/RPG/RPGCore/StoreGame.swift"]]
  }

  func scenarios(in directory: URL) -> [Scenario<GameIntent, GameState>] {
    [
      Scenario("a new game") {
        Scenario<GameIntent, GameState>.Step.send(.newGame(name: "Ada", seed: 1))
        Scenario<GameIntent, GameState>.Step.send(.explore)
        Scenario<GameIntent, GameState>.Step.await("a monster") { $0.game?.monster != nil }
      }
    ]
  }

  func makeService(
    _ architecture: Architecture,
    in directory: URL
  ) async throws -> any AppService<GameIntent, GameState> {
    let game = makeGame(architecture, saveFile: directory.appendingPathComponent("save.json")) {
      _ in
    }
    return architecture == .feedback ? Reseeded(game) : game
  }
}

/// A game whose new games all start on seed 99.
private final class Reseeded: AppService {
  let base: any AppService<GameIntent, GameState>

  init(_ base: any AppService<GameIntent, GameState>) { self.base = base }

  var architecture: Architecture { base.architecture }
  var currentState: GameState { base.currentState }
  var states: Observable<GameState, Never> { base.states }

  func send(_ intent: GameIntent) {
    if case .newGame(let name, _) = intent {
      base.send(.newGame(name: name, seed: 99))
    } else {
      base.send(intent)
    }
  }

  func finish() async { await base.finish() }
}
