/// A line typed in the game's interactive loop (or read from a script), parsed.
///
/// ```swift
/// try GameCommand.parse("attack")      // .intent(.attack)
/// try GameCommand.parse("new Ada 42")  // .intent(.newGame(name: "Ada", seed: 42))
/// try GameCommand.parse("# comment")   // nil
/// ```
public enum GameCommand: Sendable, Equatable {
  /// Something for the game to do.
  case intent(GameIntent)
  /// Show the state.
  case show
  /// Show the commands.
  case help
  /// Leave the loop.
  case quit

  /// The seed of `new NAME` without a seed.
  public static let defaultSeed: UInt64 = 42

  /// The commands, one per line, for `help`.
  public static let helpText = """
    Commands:
      new NAME [SEED]   start a new game (same seed, same game; default 42)
      explore, e        look for a monster
      attack, a         attack the monster
      potion, p         drink a healing potion
      rest, r           rest to recover HP (no monster around)
      flee, f           try to run from the monster
      save [--force]    save the game (--force replaces an unreadable save)
      load              load the saved game
      show, s           show the state
      help, h, ?        show this help
      quit, q           save and leave (end of input does the same)
    Lines starting with # are comments.
    """

  /// What a seed must be, for messages: `the seed must be a whole number from 0 to
  /// 18446744073709551615`.
  public static let seedExpectation = "the seed must be a whole number from 0 to \(UInt64.max)"

  /// How `command` (as typed, or an alias) is written: `new NAME [SEED]`, `save [--force]`, or
  /// the command alone.
  public static func usage(of command: String) -> String {
    switch command {
    case "new": "new NAME [SEED]"
    case "save": "save [--force]"
    default: command
    }
  }

  /// What `command` takes, for a message about extra arguments.
  static func takes(_ command: String) -> String {
    switch command {
    case "new": "takes a name and a seed only"
    case "save": "takes only --force"
    default: "takes no arguments"
    }
  }

  /// Parses one line.
  ///
  /// - Returns: The command, or `nil` for a blank line or a comment.
  /// - Throws: ``GameCommandError`` for anything else.
  public static func parse(_ line: String) throws(GameCommandError) -> GameCommand? {
    let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
    guard let first = words.first, !first.hasPrefix("#") else { return nil }
    let name = first.lowercased()
    let arguments = Array(words.dropFirst())
    func none(_ command: GameCommand) throws(GameCommandError) -> GameCommand {
      guard arguments.isEmpty else {
        throw .unexpectedArguments(command: name, arguments: arguments)
      }
      return command
    }
    switch name {
    case "new":
      guard let playerName = arguments.first else {
        throw .missingArgument(command: name, argument: "a player's name")
      }
      guard arguments.count <= 2 else {
        throw .unexpectedArguments(command: name, arguments: Array(arguments.dropFirst(2)))
      }
      var seed = defaultSeed
      if arguments.count == 2 {
        guard let parsed = UInt64(arguments[1]) else {
          throw .badArgument(command: name, argument: arguments[1], expected: seedExpectation)
        }
        seed = parsed
      }
      return .intent(.newGame(name: playerName, seed: seed))
    case "explore", "e": return try none(.intent(.explore))
    case "attack", "a": return try none(.intent(.attack))
    case "potion", "p", "drink", "heal": return try none(.intent(.drinkPotion))
    case "rest", "r": return try none(.intent(.rest))
    case "flee", "f", "run": return try none(.intent(.flee))
    case "load": return try none(.intent(.load))
    case "show", "s", "status": return try none(.show)
    case "help", "h", "?": return try none(.help)
    case "quit", "q", "exit": return try none(.quit)
    case "save":
      switch arguments {
      case []: return .intent(.save(overwrite: false))
      case ["--force"], ["-f"], ["force"]: return .intent(.save(overwrite: true))
      default: throw .unexpectedArguments(command: name, arguments: arguments)
      }
    default:
      throw .unknownCommand(first)
    }
  }

  /// Parses a whole script, so that a script with a bad line is rejected before anything runs.
  ///
  /// - Throws: ``GameScriptError``, naming the first bad line.
  public static func parseScript(_ text: String) throws(GameScriptError) -> [GameCommand] {
    var commands: [GameCommand] = []
    // A line ends with "\n" or "\r\n" (one Character in Swift, which "\n" alone does not
    // match): a script saved with Windows line endings reads as the same commands.
    let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    for (index, line) in lines.enumerated() {
      do {
        if let command = try parse(String(line)) { commands.append(command) }
      } catch {
        throw GameScriptError(line: index + 1, text: String(line), error: error)
      }
    }
    return commands
  }
}
