/// What a feedback loop's store processes: events, tagged with the effect that emitted them.
public struct FeedbackInput<Event: Sendable>: Sendable {
  /// The event.
  public let event: Event
  /// The effect that emitted it, if an effect did; its events are dropped once it is cancelled.
  @usableFromInline let token: EffectToken?

  @inlinable
  init(event: Event, token: EffectToken?) {
    self.event = event
    self.token = token
  }
}

/// The identity of one running effect; cancelling it drops the events it emitted that are still
/// waiting to be reduced.
@usableFromInline
final class EffectToken: Sendable {
  @usableFromInline let cancelled = LockedFlag()

  @usableFromInline init() {}

  @inlinable var isCancelled: Bool { cancelled.value }

  @usableFromInline func cancel() { cancelled.set() }
}
