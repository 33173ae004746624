public import CascadeStore
import CascadeStreams
import CustomDump
public import Foundation

/// The middleware of a ``LiveInspector``: it publishes every input the architecture processes,
/// with the state after it and the diff it made, and keeps the inputs for "replay to here".
///
/// It only observes (it never blocks or changes an input), and it costs nothing unless the app
/// was started with `--inspect`: the app adds it only then.
public final class LiveInputs<Input: Sendable, State: Encodable & Sendable>: Middleware, Sendable {
  private let inspector: LiveInspector
  private let kind: StepKind
  private let encode: @Sendable (Input) -> (any Encodable)?
  private let isEffectOutcome: @Sendable (Input, (any Sendable)?) -> Bool
  private let recorded = LockedValue<[Recorded]>([])

  /// An input as it was processed: the reactor's mutation with its action.
  public struct Recorded: Sendable {
    /// The input.
    public var input: Input
    /// The reactor's mutation, if the architecture has mutations.
    public var mutation: (any Sendable)?
  }

  init(
    inspector: LiveInspector,
    kind: StepKind,
    encode: @escaping @Sendable (Input) -> (any Encodable)?,
    isEffectOutcome: @escaping @Sendable (Input, (any Sendable)?) -> Bool
  ) {
    self.inspector = inspector
    self.kind = kind
    self.encode = encode
    self.isEffectOutcome = isEffectOutcome
  }

  /// The state before each input, for the diff.
  public var wantsStateBefore: Bool { true }

  /// It never blocks or changes an input.
  public var interceptsInputs: Bool { false }

  /// The inputs of the first `count` steps, in order.
  public func inputs(ofFirst count: Int) -> [Recorded] {
    recorded.withLock { Array($0.prefix(count)) }
  }

  /// Publishes the step `record` is: its input, the state after it, and the diff it made.
  public func process(_ record: MiddlewareRecord<Input, State>) {
    let state = (try? LiveInspector.encoder.encode(record.state)) ?? Data("null".utf8)
    let input = encode(record.input).flatMap { try? LiveInspector.encoder.encode($0) }
    let mutation = (record.mutation as? any Encodable).flatMap {
      try? LiveInspector.encoder.encode($0)
    }
    var description =
      input.flatMap { InputName.name(ofJSON: $0) } ?? String(describing: record.input)
    if let recorded = record.mutation {
      description += " → " + (mutation.flatMap { InputName.name(ofJSON: $0) } ?? "\(recorded)")
    }
    if description.count > 240 { description = description.prefix(240) + "…" }
    let payload = StepMessage.payload(input: input, mutation: mutation)
    let difference = record.stateBefore.flatMap { diff($0, record.state) }
    let step = StepMessage.Step(
      index: 0,
      sequence: Int(record.sequence),
      kind: (record.mutation == nil ? kind : .mutation).description,
      description: description,
      source: (isEffectOutcome(record.input, record.mutation) ? StepSource.effect : .user).rawValue
    )
    recorded.withLock { $0.append(Recorded(input: record.input, mutation: record.mutation)) }
    inspector.publish(state: state) { index in
      var step = step
      step.index = index
      return StepMessage(step: step, diff: difference).encoded(withState: state, input: payload)
    }
  }

}

/// A step's message (and `cascade-inspect`'s `/api/step/I` answer), without the state, which is
/// spliced in as it was encoded: `{"diff":…,"step":{…},"state":…}`.
public struct StepMessage: Encodable, Sendable {
  /// A step as the timeline shows it.
  public struct Step: Codable, Sendable {
    /// Its position in the timeline, from 0.
    public var index: Int
    /// Its record's sequence number (the architecture's input count, from 1).
    public var sequence: Int
    /// Its ``StepKind``'s name.
    public var kind: String
    /// The input's name (``InputName``: `intent(attack)`, and `action → mutation` for a
    /// reactor's mutation), at most 240 characters.
    public var description: String
    /// Its ``StepSource``'s name.
    public var source: String
    /// `true` when the inspector skips it (its states after are computed without it).
    public var skipped: Bool?

    /// Creates a step.
    public init(index: Int, sequence: Int, kind: String, description: String, source: String) {
      self.index = index
      self.sequence = sequence
      self.kind = kind
      self.description = description
      self.source = source
    }
  }

  /// The step.
  public var step: Step
  /// swift-custom-dump's diff of the states before and after it; `nil` when it changed nothing.
  public var diff: String?

  /// Creates a message.
  public init(step: Step, diff: String?) {
    self.step = step
    self.diff = diff
  }

  /// The message with `state` and the step's `input` (already encoded JSON) spliced in:
  /// `{"diff":…,"step":…,"input":…,"state":…}`, without `input` when it is `nil`.
  public func encoded(withState state: Data, input: Data? = nil) -> Data {
    let head = LiveInspector.encodeJSON(self)
    // `{"diff":…,"step":…}` + `,"input":<the input>` + `,"state":<the state>}`
    var message = head.dropLast()
    if let input {
      message.append(contentsOf: Array(#","input":"#.utf8))
      message.append(input)
    }
    message.append(contentsOf: Array(#","state":"#.utf8))
    message.append(state)
    message.append(UInt8(ascii: "}"))
    return Data(message)
  }

  /// The `input` of a step's message, as JSON: the input's, or for a reactor's mutation
  /// `{"action":…,"mutation":…}`; `nil` without an input.
  public static func payload(input: Data?, mutation: Data?) -> Data? {
    guard let mutation else { return input }
    var payload = Data(#"{"action":"#.utf8)
    payload.append(input ?? Data("null".utf8))
    payload.append(contentsOf: Array(#","mutation":"#.utf8))
    payload.append(mutation)
    payload.append(UInt8(ascii: "}"))
    return payload
  }

  private enum CodingKeys: String, CodingKey { case step, diff }

  /// Encodes the step and the diff (`null` when the step changed nothing).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(step, forKey: .step)
    try container.encode(diff, forKey: .diff)  // null when the step changed nothing
  }
}
