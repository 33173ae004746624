public import CascadeStore
public import Synchronization

/// While an action's mutations are being started, the way to reduce a mutation at once: a
/// mutation stream that emits while it is subscribed to (`.just`, `concat` of `defer` blocks, a
/// `transform(mutation:)` chain fed synchronously) has each mutation reduced before the stream
/// goes on, as ReactorKit reduces right after each mutation — so a `defer` block that reads
/// `currentState` sees the mutations emitted before it.
///
/// The store's processing thread opens the window around an action's `mutate` result and closes
/// it when that result's synchronous part has run. A mutation that arrives on that thread while
/// the window is open is reduced now; any other (later, or from another thread) is sent to the
/// store, queued behind the action as before.
@usableFromInline
final class ReduceWindow<Input>: @unchecked Sendable {
  // Safety: `thread` is atomic. `reduce` is only read and written by the thread whose identity
  // `thread` holds (the store's processing thread, while the window is open): every other thread
  // compares identities first and never touches it.
  @usableFromInline let thread = Atomic<UInt>(0)
  @usableFromInline var reduce: ((Input) -> Void)?

  @usableFromInline init() {}

  /// Runs `body` with the window open on this thread, reducing with `reduceNow`.
  @inlinable
  func open(reducing reduceNow: (Input) -> Void, _ body: () -> Void) {
    withoutActuallyEscaping(reduceNow) { reduceNow in
      let outer = reduce
      let outerThread = thread.load(ordering: .relaxed)
      reduce = reduceNow
      thread.store(currentThreadIdentity(), ordering: .relaxed)
      body()
      thread.store(outerThread, ordering: .relaxed)
      reduce = outer
    }
  }

  /// Reduces `input` now if the window is open on this thread; `false` if it is not, and the
  /// input must be sent.
  @inlinable
  func reduceIfOpen(_ input: Input) -> Bool {
    guard thread.load(ordering: .relaxed) == currentThreadIdentity(), let reduce else {
      return false
    }
    reduce(input)
    return true
  }
}
