/// One task of the list: RxTodo's `Task`.
///
/// Ids are assigned by the database and never reused, even after a task is deleted. Positions
/// are the task's place in the list, from 0, with no gaps.
public struct TodoTask: Sendable, Hashable, Codable, Identifiable {
  /// The task's id, unique in its database.
  public var id: Int
  /// What to do; never empty.
  public var title: String
  /// Whether the task is done.
  public var done: Bool
  /// The task's place in the list, from 0.
  public var position: Int

  /// Creates a task.
  public init(id: Int, title: String, done: Bool = false, position: Int) {
    self.id = id
    self.title = title
    self.done = done
    self.position = position
  }
}

/// A task to be created: what an import file holds.
public struct TodoDraft: Sendable, Hashable, Codable {
  /// What to do.
  public var title: String
  /// Whether it is already done.
  public var done: Bool

  /// Creates a draft.
  public init(title: String, done: Bool = false) {
    self.title = title
    self.done = done
  }
}

/// Which tasks a list shows.
public enum TodoFilter: String, Sendable, Hashable, Codable, CaseIterable {
  /// Every task.
  case all
  /// The tasks not done yet.
  case active
  /// The tasks done.
  case done

  /// Whether `task` passes the filter.
  public func includes(_ task: TodoTask) -> Bool {
    switch self {
    case .all: true
    case .active: !task.done
    case .done: task.done
    }
  }
}
