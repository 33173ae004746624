public import AppSupport
public import ArgumentParser

extension Architecture: ExpressibleByArgument {
  /// Parses `store`, `reactor` or `feedback`, in any case.
  public init?(argument: String) {
    self.init(rawValue: argument.lowercased())
  }

  /// The three names, for `--help`.
  public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

/// The `--architecture` option every sample app's command line takes, parsed one way.
///
/// ```swift
/// struct Play: AsyncParsableCommand {
///   @OptionGroup var architecture: ArchitectureOption
///   func run() async throws { let game = makeGame(architecture.architecture) }
/// }
/// ```
public struct ArchitectureOption: ParsableArguments, Sendable {
  /// The architecture the app's service is built on.
  @Option(help: "The architecture: store, reactor or feedback.")
  public var architecture: Architecture = .store

  /// Creates the option with its default, `store`.
  public init() {}
}
