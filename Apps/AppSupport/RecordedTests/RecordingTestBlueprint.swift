public import CascadeStore

/// An app whose session recordings become tests: ``recordingTest(contentsOf:suite:generator:)``
/// writes a Swift Testing source file that replays a recording through the exhaustive
/// `TestStore` of the architecture that made it, step by step, with the recorded effect outcomes
/// as its effects' results.
///
/// An app gives the environment its services are built from in such a test, with stubs that
/// answer each effect with its recorded outcome (``RecordedEffects``), and says which outcome an
/// effect's outcome input carries.
public protocol RecordingTestBlueprint: SessionBlueprint
where
  StoreService.Container.State: Codable,
  ReactorService.Container.State: Codable,
  FeedbackService.Container.State: Codable
{
  /// What an effect of the app produces: a save's outcome, a page or its failure, a write's
  /// result.
  associatedtype EffectOutcome: Codable & Sendable

  /// The environment of a service under a generated test: built from the recorded start, with
  /// every effect answered from `effects`.
  static func testEnvironment(
    start: Start,
    effects: RecordedEffects<EffectOutcome>
  )
    -> Environment

  /// The outcome that an effect's outcome carries (an input for which the build's
  /// `isEffectOutcome` holds, with a reactor's mutation), and the key of the effect that
  /// produced it (`nil` when the app's effects run one at a time).
  static func effectOutcome(
    of input: any Sendable,
    mutation: (any Sendable)?
  )
    -> (key: Int?, outcome: EffectOutcome)?
}

extension ArchitectureBuild {
  /// The service, made from `environment` with no middleware of a session's: for a test.
  public func service(_ environment: Environment) -> Service {
    make(environment, [])
  }

  /// The recorded form of an input, or `nil` for one that cannot be recorded: a `Core`'s event
  /// as its app records it.
  public func recorded(_ input: Input) -> Schema.Input? {
    encode(input)
  }
}
