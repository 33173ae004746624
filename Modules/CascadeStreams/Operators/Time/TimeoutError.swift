/// The failure of a stream that went silent for longer than its timeout.
///
/// ``ObservableType/timeout(_:scheduler:)`` fails with it when no value arrives for its due time.
///
/// ```swift
/// request.timeout(.seconds(10), scheduler: scheduler)
///   .subscribe(onError: { error in
///     if error is TimeoutError { print("timed out") }
///   })
/// ```
public struct TimeoutError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The silence that was exceeded.
  public let dueTime: Duration

  /// Creates the error for a timeout of `dueTime`.
  public init(dueTime: Duration) {
    self.dueTime = dueTime
  }

  /// A sentence naming the timeout, such as `timed out after 10.0 seconds`.
  public var description: String { "timed out after \(dueTime)" }
}
