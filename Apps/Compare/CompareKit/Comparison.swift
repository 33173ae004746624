import AppHarness
public import AppScenarios
import AppSupport
public import Foundation

/// Runs the comparison: each app's scenarios on every architecture, once to compare the states
/// and `iterations` times to measure throughput and peak memory, and counts each
/// architecture's lines of code.
///
/// ```swift
/// let comparison = Comparison(root: root, iterations: 20)
/// let report = try await comparison.run(comparedApps)
/// print(report.markdown)
/// ```
public struct Comparison: Sendable {
  /// The repository root, where the implementation files are counted.
  public var root: URL
  /// How many times each app's scenarios are replayed per architecture.
  public var iterations: Int
  /// Where progress is told (standard error, for the tool).
  public var progress: @Sendable (String) -> Void
  /// Where each replay's files (the todo database) go, in a folder of their own that is
  /// removed afterwards.
  public var temporaryDirectory: URL

  /// Creates a comparison.
  public init(
    root: URL,
    iterations: Int,
    temporaryDirectory: URL = FileManager.default.temporaryDirectory,
    progress: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.root = root
    self.iterations = iterations
    self.temporaryDirectory = temporaryDirectory
    self.progress = progress
  }

  /// An implementation file that could not be read.
  public struct UnreadableSource: Error, CustomStringConvertible {
    /// The file, relative to the root.
    public var file: String
    /// Why.
    public var reason: String

    /// What went wrong.
    public var description: String { "cannot count the lines of \(file): \(reason)" }
  }

  /// The report on `apps`, in their order.
  public func run(_ apps: [any ComparedApp]) async throws -> ComparisonReport {
    var results: [ComparisonReport.App] = []
    for app in apps { results.append(try await measure(app)) }
    #if DEBUG
    let configuration = "debug"
    #else
    let configuration = "release"
    #endif
    return ComparisonReport(
      iterations: iterations,
      configuration: configuration,
      processors: ProcessInfo.processInfo.activeProcessorCount,
      memoryMethod: MemoryProbe.method,
      apps: results
    )
  }

  /// The lines of code of `files`, relative to the root.
  public func linesOfCode(_ files: [String]) throws -> Int {
    try files.reduce(0) { total, file in
      do {
        return total + (try LineCounter.count(file: root.appendingPathComponent(file)))
      } catch {
        throw UnreadableSource(
          file: file,
          reason: FileProblem(error, path: root.appendingPathComponent(file).path).reason
        )
      }
    }
  }

  /// The results of one app.
  public func measure<App: ComparedApp>(_ app: App) async throws -> ComparisonReport.App {
    let architectures = Architecture.allCases
    let lines = try Dictionary(
      uniqueKeysWithValues: architectures.map {
        ($0, try linesOfCode(app.implementationFiles[$0] ?? []))
      }
    )
    try await app.start()
    do {
      let result = try await measureStarted(app, lines: lines)
      await app.stop()
      return result
    } catch {
      await app.stop()
      throw error
    }
  }

  private func measureStarted<App: ComparedApp>(
    _ app: App,
    lines: [Architecture: Int]
  ) async throws -> ComparisonReport.App {
    let architectures = Architecture.allCases
    var names: [String] = []
    var sequences: [Architecture: [[App.State]]] = [:]
    for architecture in architectures {
      progress("\(app.name) on \(architecture): comparing states")
      sequences[architecture] = try await withTemporaryDirectory(in: temporaryDirectory) {
        directory in
        let scenarios = app.scenarios(in: directory)
        names = scenarios.map(\.name)
        return try await replay(scenarios, of: app, on: architecture, in: directory)
      }
    }
    let verdicts = SequenceCheck.compare(names, sequences)
    var results: [ComparisonReport.Result] = []
    for architecture in architectures {
      progress("\(app.name) on \(architecture): \(iterations) replays")
      let memory = MemoryProbe.start()
      let clock = ContinuousClock()
      let processorStart = ProcessorTime.now()
      let start = clock.now
      for _ in 0..<iterations {
        _ = try await withTemporaryDirectory(in: temporaryDirectory) { directory in
          try await replay(app.scenarios(in: directory), of: app, on: architecture, in: directory)
        }
      }
      let elapsed = clock.now - start
      let processorSeconds = ProcessorTime.now() - processorStart
      let peak = MemoryProbe.peakDelta(since: memory)
      let seconds =
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      let verdict = verdicts[architecture] ?? SequenceCheck.Verdict(isIdentical: false)
      results.append(
        ComparisonReport.Result(
          architecture: architecture,
          identicalStates: verdict.isIdentical,
          difference: verdict.difference,
          states: sequences[architecture]?.reduce(0) { $0 + $1.count } ?? 0,
          linesOfCode: lines[architecture] ?? 0,
          files: app.implementationFiles[architecture] ?? [],
          seconds: seconds,
          replaysPerSecond: seconds > 0 ? Double(iterations) / seconds : 0,
          processorSecondsPerReplay: processorSeconds / Double(iterations),
          peakMemoryBytes: peak
        )
      )
    }
    return ComparisonReport.App(name: app.name, scenarios: names, architectures: results)
  }

  /// Runs `scenarios` in order, each on a fresh service, and returns their state sequences.
  private func replay<App: ComparedApp>(
    _ scenarios: [Scenario<App.Intent, App.State>],
    of app: App,
    on architecture: Architecture,
    in directory: URL
  ) async throws -> [[App.State]] {
    var sequences: [[App.State]] = []
    for scenario in scenarios {
      let service = AnyAppService(try await app.makeService(architecture, in: directory))
      sequences.append(try await AppHarness.run(scenario, on: service))
    }
    return sequences
  }
}

/// Runs `body` with a new directory in `parent`, removed afterwards.
func withTemporaryDirectory<T>(
  in parent: URL,
  _ body: (URL) async throws -> T
) async throws -> T {
  let directory =
    parent
    .appendingPathComponent("cascade-compare-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  do {
    let result = try await body(directory)
    await remove(directory)
    return result
  } catch {
    await remove(directory)
    throw error
  }
}

/// Removes `directory`, trying again for up to a second: a service released at the end of a
/// scenario may still be closing its database on another thread, and SQLite then deletes its
/// `-wal` and `-shm` files while the directory is being emptied, which fails the removal.
func remove(_ directory: URL) async {
  for _ in 0..<100 {
    try? FileManager.default.removeItem(at: directory)
    guard FileManager.default.fileExists(atPath: directory.path) else { return }
    try? await Task.sleep(for: .milliseconds(10))
  }
}
