public import AppSupport
import Foundation

/// The task list as every architecture's service holds it.
///
/// The state is the source of truth: an intent changes it at once, and a write effect makes the
/// database follow, one write at a time in order. While writes are pending
/// (``pendingWrites``), the state shows their changes already; when the last one has finished,
/// the state adopts what the database holds, so a failed write (reported in ``lastError``) or
/// another process's change is reconciled.
public struct TodoState: Sendable, Equatable, Codable {
  /// The tasks, in list order.
  public internal(set) var tasks: [TodoTask]
  /// Which tasks ``visibleTasks`` shows.
  public internal(set) var filter: TodoFilter = .all
  /// The text ``visibleTasks`` must contain; empty shows all.
  public internal(set) var searchText = ""
  /// The writes not finished yet, oldest first.
  public internal(set) var pendingWrites: [TodoWrite] = []
  /// Whether a change can be undone.
  public internal(set) var canUndo: Bool
  /// Whether an undone change can be redone.
  public internal(set) var canRedo: Bool
  /// What went wrong with the last intent or its write; cleared by the next intent.
  public internal(set) var lastError: TodoError?
  /// What the last finished write committed, as the database reported it; cleared by the next
  /// intent.
  ///
  /// A front acknowledges a change from it (the id the database gave a new task, the task as
  /// the transaction left it), not from ``tasks`` before the write: another process may have
  /// written in between.
  public internal(set) var lastCommit: TodoCommit?
  /// The id the next new task is expected to get: a guess the state shows a new task with until
  /// its write commits (another process may take the id first; ``lastCommit`` has the real one).
  public internal(set) var nextID: Int
  /// How many writes this service has issued (the id of the latest).
  public internal(set) var writesIssued = 0
  /// How many intents this service has handled: a caller that sent its n-th intent knows it
  /// has been handled when this reaches n (another thread may be handling it).
  public internal(set) var intentsHandled = 0

  /// A state showing a snapshot of the database.
  public init(snapshot: TodoSnapshot) {
    tasks = snapshot.tasks
    canUndo = snapshot.canUndo
    canRedo = snapshot.canRedo
    nextID = snapshot.nextID
  }

  /// A state for a database that could not be read: no tasks, and the error.
  public init(loadError: TodoError) {
    self.init(snapshot: TodoSnapshot(tasks: [], nextID: 1, canUndo: false, canRedo: false))
    lastError = loadError
  }

  /// The tasks that pass ``filter`` and ``searchText``, in list order.
  public var visibleTasks: [TodoTask] {
    let text = searchText.trimmingCharacters(in: .whitespacesAndNewlines)
    return tasks.filter { task in
      filter.includes(task)
        && (text.isEmpty
          || task.title.range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) != nil)
    }
  }

  /// The number of writes not finished yet.
  public var pendingWriteCount: Int { pendingWrites.count }

  /// Whether every write has finished (and the state shows what is stored).
  public var isIdle: Bool { pendingWrites.isEmpty }

  /// The task with `id`, if any.
  public func task(id: Int) -> TodoTask? { tasks.first { $0.id == id } }
}

/// Every input of the shared reducer: an intent, or a finished write.
public enum TodoEvent: Sendable, Equatable, Codable, IntentInput {
  /// The user asked for something.
  case intent(TodoIntent)
  /// A write finished.
  case written(TodoWriteResult)

  /// Whether the event is a write's outcome (an effect's), rather than an intent.
  var isWritten: Bool {
    if case .written = self { true } else { false }
  }
}

extension TodoState {
  /// The one reducer every architecture runs: pure, in place.
  mutating func reduce(_ event: TodoEvent) {
    switch event {
    case .intent(let intent): reduce(intent)
    case .written(let result): reduce(result)
    }
  }

  /// The state after `event`.
  func reduced(_ event: TodoEvent) -> TodoState {
    var state = self
    state.reduce(event)
    return state
  }

  /// The write `event` issues from this state, if it issues one.
  func write(issuedBy event: TodoEvent) -> TodoWrite? {
    let next = reduced(event)
    return next.writesIssued > writesIssued ? next.pendingWrites.last : nil
  }

  private mutating func reduce(_ intent: TodoIntent) {
    intentsHandled += 1
    lastError = nil
    lastCommit = nil
    switch intent {
    case .filter(let filter):
      self.filter = filter
    case .search(let text):
      searchText = text
    case .reload:
      issue(.reload)
    case .undo:
      guard canUndo || !isIdle else {
        lastError = .nothingToUndo
        return
      }
      issue(.undo)
    case .redo:
      guard canRedo || !isIdle else {
        lastError = .nothingToRedo
        return
      }
      issue(.redo)
    case .add(let title): change(.add(title: title))
    case .edit(let id, let title): change(.edit(id: id, title: title))
    case .delete(let id): change(.delete(id: id))
    case .setDone(let id, let done): change(.setDone(id: id, done))
    case .toggle(let id):
      guard let task = task(id: id) else {
        lastError = .unknownTask(id: id)
        return
      }
      change(.setDone(id: id, !task.done))
    case .move(let id, let position): change(.move(id: id, to: position))
    case .importTasks(let drafts): change(.importTasks(drafts))
    }
  }

  /// Applies a change to the tasks now, and issues its write.
  private mutating func change(_ operation: TodoOperation) {
    var list = TodoList(tasks: tasks, nextID: nextID)
    do {
      try list.apply(operation)
    } catch {
      lastError = error
      return
    }
    tasks = list.tasks
    nextID = list.nextID
    canUndo = true
    canRedo = false
    issue(operation)
  }

  private mutating func issue(_ operation: TodoOperation) {
    writesIssued += 1
    pendingWrites.append(TodoWrite(id: writesIssued, operation: operation))
  }

  private mutating func reduce(_ result: TodoWriteResult) {
    pendingWrites.removeAll { $0.id == result.writeID }
    if let error = result.error { lastError = error }
    if let commit = result.commit { lastCommit = commit }
    guard isIdle, let snapshot = result.snapshot else { return }
    tasks = snapshot.tasks
    nextID = snapshot.nextID
    canUndo = snapshot.canUndo
    canRedo = snapshot.canRedo
  }
}
