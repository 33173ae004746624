/// A line the game's command parser cannot read.
public enum GameCommandError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No such command.
  case unknownCommand(String)
  /// The command needs an argument that is missing.
  case missingArgument(command: String, argument: String)
  /// An argument is not what the command expects; `expected` says what it must be (`the seed
  /// must be a whole number from 0 to 18446744073709551615`).
  case badArgument(command: String, argument: String, expected: String)
  /// The command takes fewer arguments.
  case unexpectedArguments(command: String, arguments: [String])

  /// What was wrong, for the player, with the command's usage where it helps.
  ///
  /// ```swift
  /// GameCommandError.unexpectedArguments(command: "attack", arguments: ["now"]).description
  /// // 'attack' takes no arguments, but 'now' was given (usage: attack)
  /// ```
  public var description: String {
    switch self {
    case .unknownCommand(let command):
      "unknown command '\(command)' (type 'help' to see the commands)"
    case .missingArgument(let command, let argument):
      "'\(command)' needs \(argument) (usage: \(GameCommand.usage(of: command)))"
    case .badArgument(let command, let argument, let expected):
      "'\(command)': \(expected), not '\(argument)' (usage: \(GameCommand.usage(of: command)))"
    case .unexpectedArguments(let command, let arguments):
      "'\(command)' \(GameCommand.takes(command)), but '\(arguments.joined(separator: " "))' "
        + "\(arguments.count == 1 ? "was" : "were") given (usage: \(GameCommand.usage(of: command)))"
    }
  }
}
