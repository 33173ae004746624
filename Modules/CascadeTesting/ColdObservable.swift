public import CascadeStreams

/// A test stream that plays its recorded events anew for each subscriber, at times relative to
/// the subscription.
///
/// Each subscription schedules every recorded event on the ``TestScheduler`` at the subscription
/// time plus the event's time; disposing the subscription cancels the events not yet played.
/// Every subscription is recorded in ``subscriptions`` with the virtual times it started and
/// ended. A terminal event ends delivery but not the subscription window: the window closes when
/// the subscriber disposes of it (library operators do so right after a terminal event).
///
/// ```swift
/// let scheduler = TestScheduler()
/// let source = scheduler.createColdObservable([.next(.seconds(10), 1), .completed(.seconds(20))])
/// scheduler.advance(to: SchedulerInstant(offset: .seconds(200)))
/// let observer = scheduler.createObserver(Int.self)
/// let subscription = source.subscribe(observer)
/// scheduler.advance(by: .seconds(20))
/// subscription.dispose()
/// observer.assertEvents([.next(.seconds(210), 1), .completed(.seconds(220))])
/// source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(220))])
/// ```
public final class ColdObservable<Element: Sendable, Failure: Error>: TestableObservable {
  private let scheduler: TestScheduler
  private let windows = LockedValue<[SubscriptionWindow]>([])

  /// The events played to each subscriber, with times relative to its subscription.
  public let recordedEvents: [Recorded<StreamEvent<Element, Failure>>]

  init(scheduler: TestScheduler, events: [Recorded<StreamEvent<Element, Failure>>]) {
    self.scheduler = scheduler
    self.recordedEvents = events
  }

  /// One window per subscription so far, in subscription order.
  public var subscriptions: [SubscriptionWindow] { windows.withLock { $0 } }

  /// Schedules the recorded events for `observer`, relative to the current virtual time.
  ///
  /// - Parameter observer: The observer receiving the events.
  /// - Returns: A disposable that cancels the events not yet played and records the disposal.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element, Observer.Failure == Failure {
    let start = scheduler.now
    let index = windows.withLock { windows in
      windows.append(SubscriptionWindow(subscribed: start.offset))
      return windows.count - 1
    }
    let delivery = Delivery(observer.asObserver())
    let scheduler = scheduler
    let items = recordedEvents.map { record in
      scheduler.schedule(at: start.advanced(by: record.time), counted: true) {
        delivery.deliver(record.value)
      }
    }
    return Disposables.create { [windows] in
      delivery.end()
      for item in items { item.dispose() }
      let time = scheduler.now.offset
      windows.withLock { $0[index].disposed = time }
    }
  }
}

/// One subscriber of a test stream: delivers events following the stream grammar until the
/// subscription ends.
final class Delivery<Element: Sendable, Failure: Error>: Sendable {
  private let observer: AnyObserver<Element, Failure>
  private let lifetime = Lifetime()

  init(_ observer: AnyObserver<Element, Failure>) {
    self.observer = observer
  }

  /// Whether the subscription can still receive events.
  var isActive: Bool { !lifetime.hasEnded && observer.lifetime?.hasEnded != true }

  /// Sends `event` unless the subscription ended or already received a terminal event.
  func deliver(_ event: StreamEvent<Element, Failure>) {
    guard isActive else { return }
    if event.isTerminal {
      guard lifetime.end() else { return }
    }
    observer.on(event)
  }

  /// Stops delivery.
  func end() {
    lifetime.end()
  }
}
