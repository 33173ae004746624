public import AppHarness
public import AppSupport
public import Foundation

/// One sample app as `cascade-compare` drives it: its scenarios, a fresh service per
/// architecture, and where each architecture's implementation lives.
///
/// ```swift
/// let app = RPGComparison()
/// try await app.start()
/// for scenario in app.scenarios(in: directory) {
///   let service = try await app.makeService(.reactor, in: directory)
///   let states = try await run(scenario, on: AnyAppService(service))
/// }
/// await app.stop()
/// ```
public protocol ComparedApp: Sendable {
  /// What the user may ask of the app.
  associatedtype Intent: Sendable
  /// The app's state.
  associatedtype State: Sendable & Equatable

  /// The app's name in reports.
  var name: String { get }

  /// The source files of each architecture's implementation, relative to the repository root.
  var implementationFiles: [Architecture: [String]] { get }

  /// The scenarios of one run whose files (saves, databases) live in `directory`.
  func scenarios(in directory: URL) -> [Scenario<Intent, State>]

  /// A fresh service on `architecture` for one scenario, its files in `directory`.
  func makeService(
    _ architecture: Architecture,
    in directory: URL
  ) async throws -> any AppService<Intent, State>

  /// Starts what the scenarios need (a server); called once before any scenario runs.
  func start() async throws

  /// Stops what ``start()`` started.
  func stop() async
}

extension ComparedApp {
  /// Nothing to start.
  public func start() async throws {}

  /// Nothing to stop.
  public func stop() async {}
}

/// Every compared app, in report order.
public let comparedApps: [any ComparedApp] = [
  RPGComparison(), MoviesComparison(), TodoComparison(),
]
