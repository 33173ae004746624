/// What a feedback loop's store processes: events, tagged with the effect that emitted them.
public struct FeedbackInput<Event: Sendable>: Sendable {
  /// The event.
  public let event: Event
  /// The effect that emitted it, if an effect did; its events are dropped once it is cancelled.
  let token: EffectToken?
}

/// The identity of one running effect; cancelling it drops the events it emitted that are still
/// waiting to be reduced.
final class EffectToken: Sendable {
  private let cancelled = LockedFlag()

  var isCancelled: Bool { cancelled.value }

  func cancel() { cancelled.set() }
}
