public import AppSupport

/// What `cascade-compare` measured: per app and architecture, whether the states were the same
/// as on the other architectures, the implementation's lines of code, throughput and peak memory.
///
/// Encoded as the JSON that `--json` writes; ``markdown`` is the table printed.
public struct ComparisonReport: Sendable, Equatable, Codable {
  /// How many times each app's scenarios were replayed per architecture.
  public var iterations: Int
  /// The build configuration of the tool: `release` or `debug`.
  public var configuration: String
  /// The processors available.
  public var processors: Int
  /// How peak memory was measured.
  public var memoryMethod: String
  /// One entry per app.
  public var apps: [App]

  /// Creates a report.
  public init(
    iterations: Int,
    configuration: String,
    processors: Int,
    memoryMethod: String,
    apps: [App]
  ) {
    self.iterations = iterations
    self.configuration = configuration
    self.processors = processors
    self.memoryMethod = memoryMethod
    self.apps = apps
  }

  /// One app's results.
  public struct App: Sendable, Equatable, Codable {
    /// The app's name.
    public var name: String
    /// The names of the scenarios replayed, in order.
    public var scenarios: [String]
    /// One entry per architecture.
    public var architectures: [Result]

    /// Creates an app's results.
    public init(name: String, scenarios: [String], architectures: [Result]) {
      self.name = name
      self.scenarios = scenarios
      self.architectures = architectures
    }
  }

  /// One architecture's results for one app.
  public struct Result: Sendable, Equatable, Codable {
    /// The architecture.
    public var architecture: Architecture
    /// Whether its state sequences equal the other architectures', scenario by scenario.
    public var identicalStates: Bool
    /// Where its states first differed, if they did.
    public var difference: String?
    /// The distinct states it went through, over all scenarios once.
    public var states: Int
    /// Non-blank, non-comment lines of its implementation's files.
    public var linesOfCode: Int
    /// Those files, relative to the repository root.
    public var files: [String]
    /// Seconds the replays took in all.
    public var seconds: Double
    /// Replays of all the app's scenarios per second.
    public var replaysPerSecond: Double
    /// Processor time (user and system, every thread of the process, the embedded server's
    /// too) per replay, in seconds.
    public var processorSecondsPerReplay: Double
    /// The peak memory the replays added, in bytes; nil when it could not be measured.
    public var peakMemoryBytes: Int?

    /// Creates an architecture's results.
    public init(
      architecture: Architecture,
      identicalStates: Bool,
      difference: String? = nil,
      states: Int,
      linesOfCode: Int,
      files: [String],
      seconds: Double,
      replaysPerSecond: Double,
      processorSecondsPerReplay: Double,
      peakMemoryBytes: Int?
    ) {
      self.architecture = architecture
      self.identicalStates = identicalStates
      self.difference = difference
      self.states = states
      self.linesOfCode = linesOfCode
      self.files = files
      self.seconds = seconds
      self.replaysPerSecond = replaysPerSecond
      self.processorSecondsPerReplay = processorSecondsPerReplay
      self.peakMemoryBytes = peakMemoryBytes
    }
  }

  /// Whether every architecture of every app went through identical states.
  public var allIdentical: Bool {
    apps.allSatisfy { $0.architectures.allSatisfy(\.identicalStates) }
  }
}
