import Foundation

/// A change to the stored tasks, or a read of them: what the write effect does in one database
/// transaction.
///
/// The same operation is applied twice: to the state at once (optimistically), and to the
/// database, against what it holds then (which another process may have changed).
public enum TodoOperation: Sendable, Hashable, Codable {
  /// Appends a task.
  case add(title: String)
  /// Changes a task's title.
  case edit(id: Int, title: String)
  /// Deletes a task.
  case delete(id: Int)
  /// Marks a task done or not done.
  case setDone(id: Int, Bool)
  /// Moves a task to a position (clamped).
  case move(id: Int, to: Int)
  /// Appends tasks.
  case importTasks([TodoDraft])
  /// Undoes the last change.
  case undo
  /// Redoes the last undone change.
  case redo
  /// Changes nothing; reads the tasks again.
  case reload
}

/// The tasks in order and the next id: what operations apply to, in the state and in the
/// database alike.
struct TodoList: Equatable {
  var tasks: [TodoTask]
  var nextID: Int

  /// Applies a change; `undo`, `redo` and `reload` change nothing here (the database does them).
  ///
  /// Afterwards positions are 0, 1, 2… in list order.
  mutating func apply(_ operation: TodoOperation) throws(TodoError) {
    switch operation {
    case .add(let title):
      let title = try Self.checked(title)
      tasks.append(TodoTask(id: nextID, title: title, position: tasks.count))
      nextID += 1
    case .edit(let id, let title):
      let title = try Self.checked(title)
      tasks[try index(of: id)].title = title
    case .delete(let id):
      tasks.remove(at: try index(of: id))
    case .setDone(let id, let done):
      tasks[try index(of: id)].done = done
    case .move(let id, let position):
      let task = tasks.remove(at: try index(of: id))
      tasks.insert(task, at: min(max(position, 0), tasks.count))
    case .importTasks(let drafts):
      let titles = try drafts.map { draft throws(TodoError) in try Self.checked(draft.title) }
      for (draft, title) in zip(drafts, titles) {
        tasks.append(TodoTask(id: nextID, title: title, done: draft.done, position: tasks.count))
        nextID += 1
      }
    case .undo, .redo, .reload:
      break
    }
    for index in tasks.indices where tasks[index].position != index {
      tasks[index].position = index
    }
  }

  /// The title without surrounding white space.
  ///
  /// - Throws: ``TodoError/emptyTitle`` when nothing is left.
  static func checked(_ title: String) throws(TodoError) -> String {
    let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { throw .emptyTitle }
    return trimmed
  }

  private func index(of id: Int) throws(TodoError) -> Int {
    guard let index = tasks.firstIndex(where: { $0.id == id }) else {
      throw .unknownTask(id: id)
    }
    return index
  }
}
