/// What one step of a recording is: an input the architecture processed, or a record of the
/// front.
public enum StepKind: UInt8, Sendable, CaseIterable, Codable, CustomStringConvertible {
  /// A store's or a reactor's action.
  case action
  /// A reactor's mutation, with the action that produced it.
  case mutation
  /// A store's or a feedback loop's event.
  case event
  /// An intent the front sent.
  case intent
  /// Something the front read from outside the service (a line typed, a file).
  case fact
  /// An input of an app of your own, recorded by CascadeMiddleware's `RecordingMiddleware`: a
  /// store's action, a reactor's action or a feedback loop's event.
  case input

  /// The kind's name in the API and on the page: `action`, `mutation`, `event`, `intent`, `fact`,
  /// `input`.
  public var description: String {
    switch self {
    case .action: "action"
    case .mutation: "mutation"
    case .event: "event"
    case .intent: "intent"
    case .fact: "fact"
    case .input: "input"
    }
  }

  /// The kind named `name`, if any.
  public init?(name: String) {
    guard let kind = Self.allCases.first(where: { $0.description == name }) else { return nil }
    self = kind
  }
}

/// Where a step came from.
public enum StepSource: String, Sendable, Codable {
  /// The user: an intent or fact of the front, or an input that carries out an intent.
  case user
  /// An effect's outcome (a save or a load that finished).
  case effect
}
