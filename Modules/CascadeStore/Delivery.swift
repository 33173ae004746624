public import CascadeStreams

/// Where a subscription receives state updates.
public enum Delivery: Sendable {
  /// On the thread that processed the input, before the next input is processed: the fastest,
  /// and the only option that needs no scheduler.
  case synchronous
  /// Through `scheduler`, the latest state: a subscriber that falls behind gets the newest state
  /// when its delivery runs, not every state in between.
  ///
  /// At most one delivery per subscription waits on the scheduler; a state that arrives while
  /// it waits replaces the waiting one (``Store/coalescedDeliveries`` counts them). So a slow
  /// subscriber never builds a backlog, and memory stays flat through a burst of inputs. The
  /// first state, the one subscribed to, is never replaced: it is delivered first, then the
  /// latest. Use ``everyState(_:)`` for every state, in order.
  case scheduler(any Scheduler)
  /// Through `scheduler`, every state, in order on a serial scheduler: an unbounded FIFO of
  /// deliveries, which grows while the subscriber is behind (``Store/deliveryBacklog``).
  case everyState(any Scheduler)

  /// On the main queue (the main actor's executor): synchronously when the input was processed
  /// on the main queue with nothing of this subscription's waiting there, otherwise enqueued.
  ///
  /// Each use is a new `MainScheduler`, so other work waiting on the main queue (another
  /// store's, or `MainScheduler.instance`'s) never turns a synchronous delivery into a later one.
  public static var main: Delivery { .scheduler(MainScheduler()) }
}
