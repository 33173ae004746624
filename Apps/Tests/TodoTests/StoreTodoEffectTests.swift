import CascadeStore
import CascadeStreams
import Testing

@testable import TodoCore

/// The Store version's writes are effects of its store, started with `run` as every app's
/// Store effects are: the store counts them, `finish()` waits for them, and they reach the
/// database in the order the intents issued them.
@Suite struct StoreTodoEffectTests {

  @Test func writesAreEffectsTheStoreTracksAndFinishWaitsFor() async {
    let writes = HeldWrites()
    let service = StoreTodo(
      writes: writes,
      initialState: TodoState(
        snapshot: TodoSnapshot(tasks: [], nextID: 1, canUndo: false, canRedo: false)
      )
    )
    service.send(.add(title: "first"))
    service.send(.add(title: "second"))
    await writes.waitUntilHolding(2)

    #expect(service.store.effectsInFlight == 2)
    #expect(service.currentState.pendingWriteCount == 2)

    let finished = Task {
      await service.store.finish()
      return service.currentState
    }
    #expect(writes.release() == [1, 2])
    let state = await finished.value
    #expect(state.isIdle)
    #expect(service.store.effectsInFlight == 0)
  }
}

/// Writes that are held until ``release()``, then succeed in the order they arrived.
private final class HeldWrites: TodoWrites {
  private struct Held {
    var writes: [(TodoWrite, @Sendable (TodoWriteResult) -> Void)] = []
    var waiter: (count: Int, continuation: CheckedContinuation<Void, Never>)?
  }
  private let held = LockedValue(Held())

  func enqueue(_ write: TodoWrite, completion: @escaping @Sendable (TodoWriteResult) -> Void) {
    let waiter = held.withLock { held -> CheckedContinuation<Void, Never>? in
      held.writes.append((write, completion))
      guard let waiter = held.waiter, held.writes.count >= waiter.count else { return nil }
      held.waiter = nil
      return waiter.continuation
    }
    waiter?.resume()
  }

  /// Returns once `count` writes are held.
  func waitUntilHolding(_ count: Int) async {
    await withCheckedContinuation { continuation in
      let ready = held.withLock { held in
        if held.writes.count >= count { return true }
        held.waiter = (count, continuation)
        return false
      }
      if ready { continuation.resume() }
    }
  }

  /// Completes the held writes in the order they arrived and returns their ids.
  func release() -> [Int] {
    let writes = held.withLock { held in
      defer { held.writes = [] }
      return held.writes
    }
    for (write, completion) in writes {
      completion(
        TodoWriteResult(writeID: write.id, error: nil, commit: TodoCommit(tasks: []), snapshot: nil)
      )
    }
    return writes.map(\.0.id)
  }
}
