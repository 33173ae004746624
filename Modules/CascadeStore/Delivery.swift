public import CascadeStreams

/// Where a subscription receives state updates.
public enum Delivery: Sendable {
  /// On the thread that processed the input, before the next input is processed: the fastest,
  /// and the only option that needs no scheduler.
  case synchronous
  /// Through `scheduler`, one update at a time, in order on a serial scheduler.
  case scheduler(any Scheduler)

  /// On the main queue (the main actor's executor): synchronously when the input was processed
  /// on the main queue with nothing of the main scheduler waiting, otherwise enqueued.
  public static var main: Delivery { .scheduler(MainScheduler.instance) }
}
