public import CascadeStore
public import CascadeStreams
public import Synchronization

/// The way in for the events a loop's feedbacks emit.
///
/// It holds the events feedbacks emit while a loop starts them, so that every feedback subscribes
/// to the states, and sees the initial one, before any event is reduced.
///
/// It also bounds a loop that does not settle. Events a feedback sends on the loop's processing
/// thread are reduced in the same processing run, so feedbacks that answer every state with an
/// event would keep the sender (the loop's `init`, or `send`) forever. After
/// ``FeedbackLoop/settleLimit`` such events in a row with none from outside (an external
/// `send`, or an event from another thread), the loop reports
/// `StoreDiagnostic.loopDidNotSettle` once and sends each following one through its scheduler, a
/// millisecond later: the caller gets control back, and the loop goes on at one event per
/// millisecond. An `ImmediateScheduler` has no later time: the loop reports and goes on at once,
/// losing nothing.
@usableFromInline
final class FeedbackGate<State: Sendable, Event: Sendable>: Sendable {
  @usableFromInline let starting = Atomic<Bool>(true)
  /// Each held event with the handle it was sent through (an effect's, or the loop's store).
  @usableFromInline let held = LockedValue<[(Event, Store<State, Event>)]?>([])
  /// How many events feedbacks sent in a row on the processing thread.
  @usableFromInline let chain = Atomic<Int>(0)
  @usableFromInline let limit: Int
  @usableFromInline let scheduler: any Scheduler

  /// Whether every event goes through the scheduler, a turn later (`Observable.system`).
  @usableFromInline let hops: Bool

  @usableFromInline init(scheduler: any Scheduler, limit: Int, hops: Bool) {
    self.scheduler = scheduler
    self.limit = limit
    self.hops = hops
  }

  /// Sends `event` through `target`, or keeps it if the loop is still starting its feedbacks.
  @inlinable
  func send(_ event: Event, through target: Store<State, Event>) {
    // With an `ImmediateScheduler` a hop would be no later turn: the bound below applies.
    if hops, !(scheduler is ImmediateScheduler) {
      hop(event, through: target)
      return
    }
    if starting.load(ordering: .acquiring), holdWhileStarting(event, target) { return }
    if target.isProcessingOnCurrentThread {
      let count = chain.add(1, ordering: .relaxed).newValue
      if count > limit {
        deferSend(event, through: target, reporting: count == limit + 1)
        return
      }
      target.sendWhileProcessing(event)
      return
    }
    chain.store(0, ordering: .relaxed)
    target.send(event)
  }

  /// An event from outside the feedbacks: the loop is not feeding itself.
  @inlinable
  func noteOutsideEvent() {
    chain.store(0, ordering: .relaxed)
  }

  /// Sends `event` through the scheduler, as ReactiveFeedback's `system` observes its feedbacks'
  /// events on its scheduler; dropped if the loop has ended by then.
  @usableFromInline
  func hop(_ event: Event, through target: Store<State, Event>) {
    _ = scheduler.schedule {
      if !target.isShutDown { target.send(event) }
    }
  }

  /// How long after the previous one each event of a loop that does not settle is sent.
  @usableFromInline static var unsettledDelay: Duration { .milliseconds(1) }

  /// Sends `event` a millisecond later on the scheduler (past the limit of a loop that does not
  /// settle).
  @usableFromInline
  func deferSend(_ event: Event, through target: Store<State, Event>, reporting: Bool) {
    if reporting { target.report(.loopDidNotSettle(events: limit)) }
    if scheduler is ImmediateScheduler {
      target.send(event)
      return
    }
    // Not kept for disposal: a loop shut down by then drops it here.
    _ = scheduler.schedule(after: FeedbackGate.unsettledDelay) {
      if !target.isShutDown { target.send(event) }
    }
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
