/// A script line the game's command parser cannot read.
public struct GameScriptError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The line number, from 1.
  public var line: Int
  /// The line.
  public var text: String
  /// What is wrong with it.
  public var error: GameCommandError

  /// Creates the error for line number `line` (from 1), whose text is `text`.
  public init(line: Int, text: String, error: GameCommandError) {
    self.line = line
    self.text = text
    self.error = error
  }

  /// Where and what.
  public var description: String { "line \(line): \(error)" }
}
