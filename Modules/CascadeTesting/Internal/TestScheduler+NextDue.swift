import CascadeStreams

extension TestScheduler {
  /// The due time of the earliest item waiting, if any: how far a ``TestStore`` waiting for an
  /// action must advance the clock to make progress.
  var nextDueTime: SchedulerInstant? {
    state.withLock { $0.items.peek()?.time }
  }
}
