public import AppSupport
import CascadeStore
public import Foundation

/// The game as a session recording's inputs drive it, one recorded line at a time: for a tool
/// that steps through a recording (the inspector), as a replay does but without a service.
///
/// Each architecture's recorded inputs are reduced by the reducer the architecture runs: the
/// store's events react on the ``GameState``, the reactor's recorded mutations are applied (its
/// actions change nothing by themselves), and the feedback loop's events drive its machine, whose
/// pending changes are kept. No effect runs: a save or load is what the recording says it was.
///
/// ```swift
/// var machine = GameRecordMachine(architecture: .store)
/// try machine.apply(recordLine: line)  // one line of the recording's file
/// print(machine.state)
/// ```
public struct GameRecordMachine: Sendable {
  /// The architecture whose inputs it reduces.
  public let architecture: Architecture
  /// The feedback loop's machine: the game state, and the changes resolved but not applied.
  private var machine = FeedbackGameMachine()

  /// Creates the machine of a game that has not started, as a fresh service is.
  public init(architecture: Architecture) {
    self.architecture = architecture
  }

  /// The game's state.
  public var state: GameState { machine.game }

  /// Applies one line of a session recording's file, if it records an input of this
  /// architecture (an intent or a fact changes nothing).
  ///
  /// - Throws: A `DecodingError` when the line is not a record of the game on this architecture.
  public mutating func apply(recordLine line: Data) throws {
    switch architecture {
    case .store:
      let record = try read(StoreGameEvent.self, from: line)
      guard let event = record.input?.event else { return }
      machine.game.react(to: event)
    case .reactor:
      let record = try read(GameIntent.self, from: line)
      guard record.input != nil, let change = record.mutation else { return }
      machine.game.apply(change)
    case .feedback:
      let record = try read(FeedbackGameEvent.self, from: line)
      guard let event = record.input else { return }
      machine.reduce(event)
    }
  }

  /// Whether the input the line records is an effect's outcome (a save or load finished),
  /// rather than the direct consequence of an intent.
  ///
  /// - Throws: A `DecodingError` when the line is not a record of the game on this architecture.
  public func isEffectOutcome(recordLine line: Data) throws -> Bool {
    let change: GameChange?
    switch architecture {
    case .store:
      let record = try read(StoreGameEvent.self, from: line)
      if case .changed(let changed)? = record.input { change = changed } else { change = nil }
    case .reactor:
      change = try read(GameIntent.self, from: line).mutation
    case .feedback:
      let record = try read(FeedbackGameEvent.self, from: line)
      if case .finished? = record.input { return true }
      change = nil
    }
    return change?.isEffectOutcome ?? false
  }
}

extension GameRecordMachine {
  /// Reads `line` as a record whose input, if any, is one of this architecture's.
  private func read<Input: Decodable>(
    _ type: Input.Type,
    from line: Data
  ) throws -> RecordedLine<Input, GameChange> {
    try RecordedLine<Input, GameChange>.read(line, key: "rpg.\(architecture.rawValue)")
  }
}
