import CascadeStreams
import CascadeTestSupport
import CascadeTesting

extension TestScheduler {
  /// A cold stream that sends `events` to each subscriber at their times, counted from when it
  /// subscribed.
  ///
  /// ```swift
  /// let source: Observable<Int, Never> = scheduler.timeline([
  ///   .next(.seconds(1), 1), .completed(.seconds(2)),
  /// ])
  /// ```
  func timeline<Element, Failure>(
    _ events: [Recorded<StreamEvent<Element, Failure>>]
  ) -> Observable<Element, Failure> {
    Observable.create { observer in
      let scheduled = CompositeDisposable()
      for recorded in events {
        scheduled.insert(self.schedule(after: recorded.time) { observer.on(recorded.value) })
      }
      return scheduled
    }
  }

  /// Subscribes to `stream` now, disposes the subscription at virtual time `end`, advances the
  /// clock to `end` and returns what was received.
  func record<Element, Failure>(
    _ stream: Observable<Element, Failure>,
    until end: Duration = .seconds(1000)
  ) -> TestableObserver<Element, Failure> {
    let observer = createObserver(Element.self, failure: Failure.self)
    let subscription = SingleAssignmentDisposable()
    schedule(after: now.duration(to: SchedulerInstant(offset: end))) { subscription.dispose() }
    subscription.setDisposable(stream.subscribe(observer))
    advance(to: SchedulerInstant(offset: end))
    return observer
  }
}

/// A thread-safe log of virtual times, such as the times a stream was subscribed to.
final class TimeLog: Sendable {
  private let recorder = Recorder<Duration>()

  func append(_ instant: SchedulerInstant) {
    recorder.append(instant.offset)
  }

  var times: [Duration] { recorder.values }
}
