/// A write in flight: an operation and its place in the service's order of writes.
public struct TodoWrite: Sendable, Hashable, Codable {
  /// The write's number, from 1, in the order the service issued them.
  public var id: Int
  /// What it does.
  public var operation: TodoOperation

  /// Creates a write.
  public init(id: Int, operation: TodoOperation) {
    self.id = id
    self.operation = operation
  }
}

/// What the database holds: the tasks, the next id and the undo history's state.
public struct TodoSnapshot: Sendable, Hashable, Codable {
  /// The tasks, in list order.
  public var tasks: [TodoTask]
  /// The id the next new task gets.
  public var nextID: Int
  /// Whether the history has a change to undo.
  public var canUndo: Bool
  /// Whether the history has an undone change to redo.
  public var canRedo: Bool

  /// Creates a snapshot.
  public init(tasks: [TodoTask], nextID: Int, canUndo: Bool, canRedo: Bool) {
    self.tasks = tasks
    self.nextID = nextID
    self.canUndo = canUndo
    self.canRedo = canRedo
  }
}

/// How a write ended: its error, if any, and what the database held afterwards.
public struct TodoWriteResult: Sendable, Hashable, Codable {
  /// The write.
  public var writeID: Int
  /// Why it failed; `nil` when it succeeded.
  public var error: TodoError?
  /// What the database held afterwards; `nil` if it could not be read.
  public var snapshot: TodoSnapshot?

  /// Creates a result.
  public init(writeID: Int, error: TodoError?, snapshot: TodoSnapshot?) {
    self.writeID = writeID
    self.error = error
    self.snapshot = snapshot
  }
}
