public import CascadeStreams
public import Synchronization

/// Holds the events feedbacks emit while a loop starts them, so that every feedback subscribes to
/// the states, and sees the initial one, before any event is reduced.
@usableFromInline
final class StartGate<Event: Sendable>: Sendable {
  @usableFromInline let starting = Atomic<Bool>(true)
  @usableFromInline let held = LockedValue<[FeedbackInput<Event>]?>([])

  @usableFromInline init() {}

  /// Keeps `input` if the loop is still starting its feedbacks; returns whether it did.
  @inlinable
  func hold(_ input: FeedbackInput<Event>) -> Bool {
    guard starting.load(ordering: .acquiring) else { return false }
    return holdWhileStarting(input)
  }

  @usableFromInline
  func holdWhileStarting(_ input: FeedbackInput<Event>) -> Bool {
    held.withLock { held in
      guard held != nil else { return false }
      held?.append(input)
      return true
    }
  }

  /// Ends the start: `send` gets the held inputs, in order, before any input emitted later.
  ///
  /// `send` must only queue (the store's reentrant send does): it runs under the gate's lock.
  @usableFromInline
  func open(_ send: (FeedbackInput<Event>) -> Void) {
    held.withLock { held in
      for input in held ?? [] { send(input) }
      held = nil
    }
    starting.store(false, ordering: .releasing)
  }
}
