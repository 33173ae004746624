public import CustomDump

/// When an observer was subscribed to a test stream, and when it was disposed of.
///
/// ``ColdObservable`` and ``HotObservable`` record one window per subscription in
/// ``TestableObservable/subscriptions``, with the virtual times of the subscription and of its
/// disposal, so a test can assert when an operator or effect subscribed and let go.
///
/// ```swift
/// source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(220))])
/// ```
public struct SubscriptionWindow: Sendable, Hashable {
  /// The virtual time of the subscription, as the offset from the scheduler's origin.
  public var subscribed: Duration
  /// The virtual time of the disposal, or `nil` while the subscription is live.
  public var disposed: Duration?

  /// Creates a window from `subscribed` to `disposed` (`nil`: still subscribed).
  ///
  /// - Parameters:
  ///   - subscribed: The virtual time of the subscription.
  ///   - disposed: The virtual time of the disposal, or `nil` if it has not happened.
  public init(subscribed: Duration, disposed: Duration? = nil) {
    self.subscribed = subscribed
    self.disposed = disposed
  }

  /// Creates a window from `subscribed` to `disposed` (`nil`: still subscribed).
  ///
  /// ```swift
  /// SubscriptionWindow(.seconds(200), .seconds(220))
  /// ```
  ///
  /// - Parameters:
  ///   - subscribed: The virtual time of the subscription.
  ///   - disposed: The virtual time of the disposal, or `nil` if it has not happened.
  public init(_ subscribed: Duration, _ disposed: Duration? = nil) {
    self.init(subscribed: subscribed, disposed: disposed)
  }
}

extension SubscriptionWindow: CustomStringConvertible {
  /// The window, such as `200.0 seconds ..< 220.0 seconds` or `200.0 seconds ..< (live)`.
  public var description: String {
    "\(subscribed) ..< \(disposed.map { "\($0)" } ?? "(live)")"
  }
}

extension SubscriptionWindow: CustomDumpStringConvertible {
  /// The window as its initializer spells it, such as
  /// `SubscriptionWindow(200.0 seconds, 220.0 seconds)`.
  public var customDumpDescription: String {
    "SubscriptionWindow(\(subscribed), \(disposed.map { "\($0)" } ?? "nil"))"
  }
}
