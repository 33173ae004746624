import AppSupport
import Foundation
import RPGCore

/// An app's state machine as a session recording's lines drive it, one line at a time, without
/// running any effect: what the inspector reduces a recording with.
protocol InspectedMachine: Sendable {
  /// The state the page shows.
  associatedtype State: Encodable & Sendable

  /// The state after the lines applied so far.
  var state: State { get }

  /// Applies one line of the recording (an intent or a fact changes nothing).
  mutating func apply(recordLine line: Data) throws

  /// Whether the line's input is an effect's outcome.
  func isEffectOutcome(recordLine line: Data) throws -> Bool
}

extension GameRecordMachine: InspectedMachine {}

extension RecordReducer: InspectedMachine {}
