public import AppSupport
public import ArgumentParser
import Foundation
public import InspectorLink

/// The `--inspect`, `--inspect-port N` and `--inspect-steps N` options every sample app's command
/// line takes: a live inspection endpoint that `cascade-inspect --live URL` attaches to.
///
/// ```swift
/// struct Play: AsyncParsableCommand {
///   @OptionGroup var inspection: InspectOptions
/// }
/// let inspector = inspection.makeInspector(app: "rpg", architecture: .store, command: "play")
/// // … build the service with the inspector's middleware, then:
/// try await inspection.start(inspector, app: "rpg")
/// ```
public struct InspectOptions: ParsableArguments {
  /// Whether to open the endpoint.
  @Flag(
    help: """
      Open a live inspection endpoint on 127.0.0.1 and print its URL on standard error: \
      `cascade-inspect --live URL` shows every input and state as they happen.
      """
  )
  public var inspect = false

  /// The endpoint's port, if given.
  @Option(
    help: ArgumentHelp("The inspection endpoint's port (default: a free one).", valueName: "N")
  )
  public var inspectPort: UInt16?

  /// The most steps the endpoint keeps for its clients, if given.
  @Option(
    help: ArgumentHelp(
      """
      The most steps the inspection endpoint keeps for its clients, the oldest let go beyond \
      (default: 100000).
      """,
      valueName: "N"
    )
  )
  public var inspectSteps: Int?

  /// Creates the options, with none given.
  public init() {}

  /// Refuses `--inspect-port` and `--inspect-steps` without `--inspect`, and a number of steps
  /// outside `LiveInspector.stepLimits`.
  public func validate() throws {
    if inspectPort != nil, !inspect { throw ValidationError("--inspect-port needs --inspect") }
    if let inspectSteps {
      guard inspect else { throw ValidationError("--inspect-steps needs --inspect") }
      try NumericOption.check(inspectSteps, of: "--inspect-steps", in: LiveInspector.stepLimits)
    }
  }

  /// The endpoint, not yet listening, if `--inspect` was given.
  public func makeInspector(
    app: String,
    architecture: Architecture,
    command: String
  ) -> LiveInspector? {
    guard inspect else { return nil }
    return LiveInspector(
      app: app,
      architecture: architecture,
      command: command,
      stepLimit: inspectSteps ?? LiveInspector.defaultStepLimit
    )
  }

  /// Starts `inspector` listening and prints its URL on standard error:
  /// `<app>: inspect with: cascade-inspect --live ws://127.0.0.1:PORT/live?token=…`.
  ///
  /// - Throws: `ExitCode` 74 (``ExitStatus/ioError``) after printing why, when the port cannot be
  ///   listened on.
  public func start(_ inspector: LiveInspector?, app: String) async throws {
    guard let inspector else { return }
    do {
      let url = try await inspector.start(port: inspectPort ?? 0)
      StandardError.print("\(app): inspect with: cascade-inspect --live \(url.absoluteString)")
    } catch {
      StandardError.print("\(app): \(error.description)")
      throw ExitCode(ExitStatus.ioError.rawValue)
    }
  }
}
