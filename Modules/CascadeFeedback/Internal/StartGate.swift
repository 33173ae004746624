public import CascadeStore
public import CascadeStreams
public import Synchronization

/// Holds the events feedbacks emit while a loop starts them, so that every feedback subscribes to
/// the states, and sees the initial one, before any event is reduced.
@usableFromInline
final class StartGate<State: Sendable, Event: Sendable>: Sendable {
  @usableFromInline let starting = Atomic<Bool>(true)
  /// Each held event with the handle it was sent through (an effect's, or the loop's store).
  @usableFromInline let held = LockedValue<[(Event, Store<State, Event>)]?>([])

  @usableFromInline init() {}

  /// Sends `event` through `target`, or keeps it if the loop is still starting its feedbacks.
  @inlinable
  func send(_ event: Event, through target: Store<State, Event>) {
    if starting.load(ordering: .acquiring), holdWhileStarting(event, target) { return }
    target.send(event)
  }

  /// Keeps `event` if the loop is still starting its feedbacks; returns whether it did.
  @usableFromInline
  func holdWhileStarting(_ event: Event, _ target: Store<State, Event>) -> Bool {
    held.withLock { held in
      guard held != nil else { return false }
      held?.append((event, target))
      return true
    }
  }

  /// Ends the start: the held events are sent, in order, before any event emitted later.
  ///
  /// Called while the loop's store processes (its start command), so sending only queues; it
  /// runs under the gate's lock.
  @usableFromInline
  func open() {
    held.withLock { held in
      for (event, target) in held ?? [] { target.send(event) }
      held = nil
    }
    starting.store(false, ordering: .releasing)
  }
}
