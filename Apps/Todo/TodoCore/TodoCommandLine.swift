/// One command of the interactive `todo` session, parsed from a line the user typed.
///
/// Positions are counted from 1 on the command line, as `todo list` shows them.
public enum TodoCommand: Sendable, Hashable {
  /// Sends an intent to the service.
  case intent(TodoIntent)
  /// Lists the tasks that pass a filter and contain a text (empty: all).
  case list(filter: TodoFilter, search: String)
  /// Imports tasks from a JSON file.
  case importFile(String)
  /// Exports tasks to a JSON file.
  case exportFile(String)
  /// Shows the commands.
  case help
  /// Ends the session.
  case quit
  /// An empty line: nothing to do.
  case nothing
}

/// Why a line is not a command.
public struct TodoCommandLineError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What was wrong, for the user.
  public var description: String

  /// An error with its message.
  public init(description: String) { self.description = description }
}

/// Parses the lines of the interactive session: a pure function, tested on its own.
public enum TodoCommandLine {
  /// The commands, one per line, for `help`.
  public static let help = """
    add TEXT            add a task
    edit ID TEXT        change a task's title
    done ID / undone ID mark a task done / not done
    toggle ID           flip a task between done and not done
    rm ID               delete a task
    mv ID POSITION      move a task (positions from 1; also: mv ID --to POSITION)
    undo / redo         undo the last change / redo the last undone one
    list [--done|--active|--all] [--search TEXT]
    search TEXT         show only tasks containing TEXT (empty: all)
    import FILE / export FILE
    help / quit
    """

  /// The command `line` asks for.
  ///
  /// Words are separated by spaces; a word may be quoted with `"` or `'`. The text of `add`,
  /// `edit` and `search` is the rest of the line (quotes around it are removed).
  ///
  /// - Throws: ``TodoCommandLineError`` naming what is wrong.
  public static func parse(_ line: String) throws(TodoCommandLineError) -> TodoCommand {
    let words = try split(line)
    guard let name = words.first?.lowercased() else { return .nothing }
    let arguments = Array(words.dropFirst())
    switch name {
    case "add":
      return .intent(.add(title: try text(arguments, for: "add TEXT")))
    case "edit":
      let id = try self.id(arguments, usage: "edit ID TEXT")
      return .intent(
        .edit(id: id, title: try text(Array(arguments.dropFirst()), for: "edit ID TEXT"))
      )
    case "done", "undone", "toggle", "rm", "delete":
      let id = try self.id(arguments, usage: "\(name) ID")
      try expectNoMore(arguments.dropFirst(), usage: "\(name) ID")
      switch name {
      case "done": return .intent(.setDone(id: id, true))
      case "undone": return .intent(.setDone(id: id, false))
      case "toggle": return .intent(.toggle(id: id))
      default: return .intent(.delete(id: id))
      }
    case "mv", "move":
      let usage = "mv ID POSITION"
      let id = try self.id(arguments, usage: usage)
      var rest = Array(arguments.dropFirst())
      if rest.first == "--to" { rest.removeFirst() }
      guard rest.count == 1, let position = Int(rest[0]), position >= 1 else {
        throw TodoCommandLineError(description: "usage: \(usage) (positions start at 1)")
      }
      return .intent(.move(id: id, to: position - 1))
    case "undo", "redo":
      try expectNoMore(arguments[...], usage: name)
      return .intent(name == "undo" ? .undo : .redo)
    case "list", "ls":
      return try list(arguments)
    case "search":
      return .intent(.search(arguments.joined(separator: " ")))
    case "import", "export":
      guard arguments.count == 1 else {
        throw TodoCommandLineError(description: "usage: \(name) FILE")
      }
      return name == "import" ? .importFile(arguments[0]) : .exportFile(arguments[0])
    case "help", "?":
      return .help
    case "quit", "exit":
      return .quit
    default:
      throw TodoCommandLineError(description: "unknown command \"\(name)\"; type help")
    }
  }

  private static func list(_ arguments: [String]) throws(TodoCommandLineError) -> TodoCommand {
    var filter = TodoFilter.all
    var search = ""
    var rest = arguments[...]
    while let option = rest.popFirst() {
      switch option {
      case "--done": filter = .done
      case "--active": filter = .active
      case "--all": filter = .all
      case "--search":
        guard let text = rest.popFirst() else {
          throw TodoCommandLineError(description: "--search needs a text")
        }
        search = text
      default:
        throw TodoCommandLineError(
          description: "usage: list [--done|--active|--all] [--search TEXT]"
        )
      }
    }
    return .list(filter: filter, search: search)
  }

  private static func id(_ arguments: [String], usage: String) throws(TodoCommandLineError) -> Int {
    guard let first = arguments.first else {
      throw TodoCommandLineError(description: "usage: \(usage)")
    }
    guard let id = Int(first), id > 0 else {
      throw TodoCommandLineError(description: "\"\(first)\" is not a task id")
    }
    return id
  }

  private static func text(
    _ words: [String],
    for usage: String
  ) throws(TodoCommandLineError)
    -> String
  {
    let text = words.joined(separator: " ")
    guard !text.allSatisfy(\.isWhitespace) else {
      throw TodoCommandLineError(description: "usage: \(usage) (the text cannot be empty)")
    }
    return text
  }

  private static func expectNoMore(
    _ words: ArraySlice<String>,
    usage: String
  ) throws(TodoCommandLineError) {
    guard words.isEmpty else {
      throw TodoCommandLineError(description: "usage: \(usage)")
    }
  }

  /// Splits a line into words; a quote at the start of a word groups words up to the closing
  /// quote and is removed (an apostrophe inside a word, as in "don't", is kept).
  static func split(_ line: String) throws(TodoCommandLineError) -> [String] {
    var words: [String] = []
    var word = ""
    var inWord = false
    var quote: Character?
    for character in line {
      if let open = quote {
        if character == open { quote = nil } else { word.append(character) }
      } else if !inWord, character == "\"" || character == "'" {
        quote = character
        inWord = true
      } else if character.isWhitespace {
        if inWord { words.append(word) }
        word = ""
        inWord = false
      } else {
        word.append(character)
        inWord = true
      }
    }
    guard quote == nil else { throw TodoCommandLineError(description: "a quote is not closed") }
    if inWord { words.append(word) }
    return words
  }
}
