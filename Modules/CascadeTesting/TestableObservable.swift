public import CascadeStreams

/// A test stream that replays recorded events on virtual time and records its subscriptions.
///
/// ``ColdObservable`` and ``HotObservable`` conform. Create them with
/// `TestScheduler.createColdObservable(_:)` and `TestScheduler.createHotObservable(_:)`.
public protocol TestableObservable<Element, Failure>: ObservableType {
  /// The events the stream plays, with their times.
  var recordedEvents: [Recorded<StreamEvent<Element, Failure>>] { get }

  /// One window per subscription so far, in subscription order.
  var subscriptions: [SubscriptionWindow] { get }
}
