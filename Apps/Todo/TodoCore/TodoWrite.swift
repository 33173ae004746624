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

/// What a write's transaction committed: the tasks it was about, as the transaction left them.
///
/// Acknowledgements (`added #12 "Buy milk"`) are made from it, never from a guess made before
/// the write: another process may have written in between, and the ids the database gives are
/// known only once the transaction commits.
public struct TodoCommit: Sendable, Hashable, Codable {
  /// The tasks the operation was about.
  ///
  /// The task added (or the tasks imported), the task edited, marked or moved, the task deleted
  /// (as it was before), or the tasks an undo or a redo changed (a task it deleted as it was
  /// before). Empty for a reload.
  public var tasks: [TodoTask]

  /// Creates a commit.
  public init(tasks: [TodoTask]) {
    self.tasks = tasks
  }
}

/// How a write ended: its error, if any, what it committed, and what the database held
/// afterwards.
public struct TodoWriteResult: Sendable, Hashable, Codable {
  /// The write.
  public var writeID: Int
  /// Why it failed; `nil` when it succeeded.
  public var error: TodoError?
  /// What the transaction committed; `nil` when it failed.
  public var commit: TodoCommit?
  /// What the database held afterwards; `nil` if it could not be read.
  public var snapshot: TodoSnapshot?

  /// Creates a result.
  public init(
    writeID: Int,
    error: TodoError?,
    commit: TodoCommit? = nil,
    snapshot: TodoSnapshot?
  ) {
    self.writeID = writeID
    self.error = error
    self.commit = commit
    self.snapshot = snapshot
  }
}
