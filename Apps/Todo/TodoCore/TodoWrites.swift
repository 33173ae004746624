import AppSupport

/// Where a task list service's writes go: the database, or nowhere in a replay.
protocol TodoWrites: Sendable {
  /// Performs `write` after every write enqueued before it, then reports how it ended.
  func enqueue(_ write: TodoWrite, completion: @escaping @Sendable (TodoWriteResult) -> Void)
}

extension TodoWrites {
  /// Performs `write` after every write enqueued before it and returns the result.
  func performing(_ write: TodoWrite) async -> TodoWriteResult {
    await withCheckedContinuation { continuation in
      enqueue(write) { continuation.resume(returning: $0) }
    }
  }
}

extension TodoDatabase: TodoWrites {}

/// The writes of a replayed service: a replay runs no effect, so none is ever enqueued; if one
/// were, it would fail without touching any file, and the replay would not print what the live
/// run printed.
struct NoTodoWrites: TodoWrites {
  func enqueue(_ write: TodoWrite, completion: @escaping @Sendable (TodoWriteResult) -> Void) {
    completion(
      TodoWriteResult(
        writeID: write.id,
        error: .storage("a replay writes nothing"),
        snapshot: nil
      )
    )
  }
}

/// The writes of a test generated from a recording: each write gets the result recorded for its
/// id, once the test releases it; no database is opened.
struct RecordedTodoWrites: TodoWrites {
  let effects: RecordedEffects<TodoWriteResult>

  func enqueue(_ write: TodoWrite, completion: @escaping @Sendable (TodoWriteResult) -> Void) {
    let effects = effects
    Task {
      let result = await effects.outcome(forKey: write.id)
      completion(
        result
          ?? TodoWriteResult(
            writeID: write.id,
            error: .storage("the recording holds no result for write \(write.id)"),
            snapshot: nil
          )
      )
    }
  }
}
