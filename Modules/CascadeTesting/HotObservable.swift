public import CascadeStreams

/// A test stream that plays its recorded events once, at absolute virtual times, to whoever is
/// subscribed at the time.
///
/// The events are scheduled on the ``TestScheduler`` when the stream is created, at their
/// recorded times measured from the scheduler's origin. A subscriber receives the events played
/// while it is subscribed, and nothing after the first terminal event. Every subscription is
/// recorded in ``subscriptions`` with the virtual times it started and ended.
///
/// The scheduled events are fixtures, not stream resources: they do not count in
/// `Resources.total`, so a test need not play all of them.
///
/// The scheduler keeps the stream alive until its last event has played, as RxTest's does, so a
/// stream built and subscribed in one chain, with no reference kept, still plays:
///
/// ```swift
/// scheduler.createHotObservable([.next(.seconds(100), .refresh)])
///   .subscribe(reactor.action)
///   .disposed(by: disposeBag)
/// ```
///
/// The stream refers to its scheduler weakly, so the two never keep each other alive.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let source = scheduler.createHotObservable([
///   .next(.seconds(150), 1), .next(.seconds(210), 2), .next(.seconds(230), 3),
/// ])
/// let observer = scheduler.start(disposed: .seconds(220)) { source.map { $0 * 10 } }
/// observer.assertEvents([.next(.seconds(210), 20)])
/// source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(220))])
/// ```
public final class HotObservable<Element: Sendable, Failure: Error>: TestableObservable {
  private struct State {
    var subscribers: [(id: Int, delivery: Delivery<Element, Failure>)] = []
    var windows: [SubscriptionWindow] = []
    var terminated = false
  }

  // Weak: the scheduler keeps the stream (its scheduled events do), not the reverse.
  private weak let scheduler: TestScheduler?
  private let state = LockedValue(State())

  /// The events played, with their absolute virtual times.
  public let recordedEvents: [Recorded<StreamEvent<Element, Failure>>]

  init(scheduler: TestScheduler, events: [Recorded<StreamEvent<Element, Failure>>]) {
    self.scheduler = scheduler
    self.recordedEvents = events
    for record in events {
      // Strong: the scheduler keeps the stream until the event has played.
      scheduler.schedule(at: SchedulerInstant(offset: record.time), counted: false) {
        self.play(record.value)
      }
    }
  }

  /// One window per subscription so far, in subscription order.
  public var subscriptions: [SubscriptionWindow] { state.withLock { $0.windows } }

  /// Subscribes `observer` to the events played from now on.
  ///
  /// - Parameter observer: The observer receiving the events.
  /// - Returns: A disposable that ends the subscription and records the disposal.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element, Observer.Failure == Failure {
    let time = now
    let delivery = Delivery(observer.asObserver())
    let id = state.withLock { state in
      state.windows.append(SubscriptionWindow(subscribed: time))
      let id = state.windows.count - 1
      if !state.terminated { state.subscribers.append((id, delivery)) }
      return id
    }
    let scheduler = scheduler
    return Disposables.create { [state, weak scheduler] in
      delivery.end()
      let time = scheduler?.now.offset ?? time
      state.withLock { state in
        state.windows[id].disposed = time
        state.subscribers.removeAll { $0.id == id }
      }
    }
  }

  /// The scheduler's current time; zero once the scheduler is gone (no time passes then).
  private var now: Duration { scheduler?.now.offset ?? .zero }

  private func play(_ event: StreamEvent<Element, Failure>) {
    let subscribers = state.withLock { state -> [Delivery<Element, Failure>] in
      if state.terminated { return [] }
      if event.isTerminal { state.terminated = true }
      return state.subscribers.map(\.delivery)
    }
    for delivery in subscribers {
      delivery.deliver(event)
    }
  }
}
