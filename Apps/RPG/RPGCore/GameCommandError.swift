/// A line the game's command parser cannot read.
public enum GameCommandError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No such command.
  case unknownCommand(String)
  /// The command needs an argument that is missing.
  case missingArgument(command: String, argument: String)
  /// An argument is not what the command expects.
  case badArgument(command: String, argument: String, expected: String)
  /// The command takes fewer arguments.
  case unexpectedArguments(command: String, arguments: [String])

  /// What was wrong, for the player.
  public var description: String {
    switch self {
    case .unknownCommand(let command):
      "unknown command '\(command)' (type 'help' for the commands)"
    case .missingArgument(let command, let argument):
      "'\(command)' needs \(argument)"
    case .badArgument(let command, let argument, let expected):
      "'\(command)': '\(argument)' is not \(expected)"
    case .unexpectedArguments(let command, let arguments):
      "'\(command)' does not take '\(arguments.joined(separator: " "))'"
    }
  }
}
