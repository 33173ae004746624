public import Foundation

/// An app's state as a session recording's lines drive it, one recorded line at a time, through
/// the reducer its architecture runs — without a service, and without running any effect: what a
/// tool that steps through a recording (the inspector) reduces it with.
///
/// A store's or a feedback loop's recorded events reduce the state themselves
/// (``inputs(_:of:initial:reduce:isEffectOutcome:)``); a reactor's actions change nothing by
/// themselves, and its recorded mutations are reduced
/// (``mutations(_:of:initial:reduce:isEffectOutcome:)``). The front's intents and facts change
/// nothing. A write, a request or a save is what the recording says it was.
///
/// ```swift
/// var machine = RecordReducer.inputs(
///   TodoEvent.self, of: "todo.store", initial: start,
///   reduce: { state, event in state.reduce(event) },
///   isEffectOutcome: { $0.isWritten }
/// )
/// try machine.apply(recordLine: line)  // one line of the recording's file
/// print(machine.state)
/// ```
public struct RecordReducer<State: Encodable & Sendable>: Sendable {
  /// The state after the lines applied so far.
  public private(set) var state: State
  private let reduceLine: @Sendable (inout State, Data) throws -> Void
  private let outcome: @Sendable (Data) throws -> Bool

  /// The machine that reads what each line records with `recorded` (`nil`: nothing this
  /// architecture reduces), and reduces it.
  private init<Recorded>(
    state: State,
    recorded: @escaping @Sendable (Data) throws -> Recorded?,
    reduce: @escaping @Sendable (inout State, Recorded) -> Void,
    isEffectOutcome: @escaping @Sendable (Recorded) -> Bool
  ) {
    self.state = state
    reduceLine = { state, line in
      if let value = try recorded(line) { reduce(&state, value) }
    }
    outcome = { line in try recorded(line).map(isEffectOutcome) ?? false }
  }

  /// The machine of an architecture whose recorded inputs reduce the state: a store's or a
  /// feedback loop's events, recorded under `key` (`<app>.<architecture>`).
  public static func inputs<Input: Decodable & Sendable>(
    _ input: Input.Type,
    of key: String,
    initial: State,
    reduce: @escaping @Sendable (inout State, Input) -> Void,
    isEffectOutcome: @escaping @Sendable (Input) -> Bool
  ) -> Self {
    Self(
      state: initial,
      recorded: { line in try RecordedLine<Input, Never>.read(line, key: key).input },
      reduce: reduce,
      isEffectOutcome: isEffectOutcome
    )
  }

  /// The machine of a reactor whose actions are recorded under `key` (`<app>.reactor`), each
  /// with the mutation it produced: the mutations are reduced.
  public static func mutations<Mutation: Decodable & Sendable>(
    _ mutation: Mutation.Type,
    of key: String,
    initial: State,
    reduce: @escaping @Sendable (inout State, Mutation) -> Void,
    isEffectOutcome: @escaping @Sendable (Mutation) -> Bool
  ) -> Self {
    Self(
      state: initial,
      recorded: { line in
        let record = try RecordedLine<AnyRecordedValue, Mutation>.read(line, key: key)
        return record.input == nil ? nil : record.mutation
      },
      reduce: reduce,
      isEffectOutcome: isEffectOutcome
    )
  }

  /// Applies one line of the recording's file, if it records an input of this architecture.
  ///
  /// - Throws: A `DecodingError` when the line is not a record of this app on this
  ///   architecture.
  public mutating func apply(recordLine line: Data) throws {
    try reduceLine(&state, line)
  }

  /// Whether the input the line records is an effect's outcome (a write, a page, a save that
  /// finished) rather than the direct consequence of an intent.
  ///
  /// - Throws: A `DecodingError` when the line is not a record of this app on this
  ///   architecture.
  public func isEffectOutcome(recordLine line: Data) throws -> Bool {
    try outcome(line)
  }
}

/// One line of a session recording, read for the architecture's input only (`nil` for another
/// record: the session's start, an intent, a fact) and a reactor's mutation.
///
/// ```swift
/// let record = try RecordedLine<GameEvent, Never>.read(line, key: "rpg.store")
/// ```
public struct RecordedLine<Input: Decodable, Mutation: Decodable>: Decodable {
  /// The input's key: `<app>.<architecture>`; empty for a record that is not an input.
  public private(set) var key = ""
  /// The input, if the line records one.
  public private(set) var input: Input?
  /// The reactor's mutation recorded with its action, if any.
  public private(set) var mutation: Mutation?

  /// The decoder of every line: making one per line would cost more than the decoding.
  private static var decoder: JSONDecoder { sharedDecoder }

  /// Reads `line`, whose input, if any, must be recorded under `key`.
  ///
  /// - Throws: A `DecodingError` when the line is not a record, or records another app's or
  ///   architecture's input.
  public static func read(_ line: Data, key: String) throws -> Self {
    let record = try decoder.decode(Self.self, from: line)
    guard record.input == nil || record.key == key else {
      let app = key.split(separator: ".").first.map(String.init) ?? key
      let architecture = key.split(separator: ".").dropFirst().first.map(String.init) ?? "?"
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: [],
          debugDescription: "\"\(record.key)\" is not a record of \(app) on the "
            + "\(architecture) architecture"
        )
      )
    }
    return record
  }

  private enum Keys: String, CodingKey {
    case input, mutation
  }

  /// Decodes a record; its input only if it is the architecture's (not the session's start, an
  /// intent or a fact).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    let record = try container.nestedContainer(keyedBy: RecordKey.self, forKey: .input)
    guard let key = record.allKeys.first,
      !["session", "intent", "fact", "check"].contains(key.stringValue)
    else { return }
    self.key = key.stringValue
    input = try record.decode(Input.self, forKey: key)
    if Mutation.self != Never.self {
      mutation = try container.decodeIfPresent(Mutation.self, forKey: .mutation)
    }
  }
}

/// A recorded value read only to know it is there (a reactor's action, whose mutation is what
/// changes the state).
public struct AnyRecordedValue: Decodable, Sendable {
  /// Accepts any value.
  public init(from decoder: any Decoder) throws {}
}

/// One decoder for every recorded line (JSONDecoder is thread-safe to use concurrently).
private let sharedDecoder = JSONDecoder()
