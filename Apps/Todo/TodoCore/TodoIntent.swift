/// What the user may ask of the task list.
///
/// Intents that change tasks are checked against the state first (an unknown id or an empty
/// title is reported in ``TodoState/lastError`` and changes nothing), then applied to the state
/// and written to the database by an asynchronous effect.
public enum TodoIntent: Sendable, Hashable, Codable {
  /// Adds a task at the end of the list.
  case add(title: String)
  /// Changes a task's title.
  case edit(id: Int, title: String)
  /// Deletes a task.
  case delete(id: Int)
  /// Marks a task done (`true`) or not done (`false`).
  case setDone(id: Int, Bool)
  /// Flips a task between done and not done, as RxTodo's tap does.
  case toggle(id: Int)
  /// Moves a task to `position` (from 0; clamped to the list).
  case move(id: Int, to: Int)
  /// Appends the drafts as new tasks, in one change (one undo step).
  case importTasks([TodoDraft])
  /// Undoes the last change (persisted: it works across runs).
  case undo
  /// Redoes the last undone change.
  case redo
  /// Shows all, active or done tasks.
  case filter(TodoFilter)
  /// Shows only the tasks whose title contains `text` (case-insensitive); empty shows all.
  case search(String)
  /// Reads the tasks again from the database (to see other processes' changes).
  case reload
}
