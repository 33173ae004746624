public import CascadeStreams

extension TestScheduler {
  /// Creates a stream that plays `events` to each subscriber, at times relative to its
  /// subscription.
  ///
  /// ```swift
  /// let source = scheduler.createColdObservable([.next(.seconds(10), 1), .completed(.seconds(20))])
  /// ```
  ///
  /// - Parameter events: The events, with their times after the subscription.
  /// - Returns: The cold stream; it records its subscriptions.
  public func createColdObservable<Element: Sendable, Failure: Error>(
    _ events: [Recorded<StreamEvent<Element, Failure>>]
  ) -> ColdObservable<Element, Failure> {
    ColdObservable(scheduler: self, events: events)
  }

  /// Creates a stream that cannot fail and plays `events` to each subscriber, at times relative
  /// to its subscription.
  ///
  /// This overload lets `createColdObservable([.next(.seconds(10), 1)])` infer `Never` as the
  /// failure type.
  ///
  /// - Parameter events: The events, with their times after the subscription.
  /// - Returns: The cold stream; it records its subscriptions.
  public func createColdObservable<Element: Sendable>(
    _ events: [Recorded<StreamEvent<Element, Never>>]
  ) -> ColdObservable<Element, Never> {
    ColdObservable(scheduler: self, events: events)
  }

  /// Creates a stream that plays `events` once, at their absolute virtual times, to whoever is
  /// subscribed.
  ///
  /// The events are scheduled now; times before ``now`` play on the next advance.
  ///
  /// ```swift
  /// let source = scheduler.createHotObservable([.next(.seconds(150), 1), .next(.seconds(210), 2)])
  /// ```
  ///
  /// - Parameter events: The events, with their times from the scheduler's origin.
  /// - Returns: The hot stream; it records its subscriptions.
  public func createHotObservable<Element: Sendable, Failure: Error>(
    _ events: [Recorded<StreamEvent<Element, Failure>>]
  ) -> HotObservable<Element, Failure> {
    HotObservable(scheduler: self, events: events)
  }

  /// Creates a stream that cannot fail and plays `events` once, at their absolute virtual
  /// times, to whoever is subscribed.
  ///
  /// This overload lets `createHotObservable([.next(.seconds(150), 1)])` infer `Never` as the
  /// failure type.
  ///
  /// - Parameter events: The events, with their times from the scheduler's origin.
  /// - Returns: The hot stream; it records its subscriptions.
  public func createHotObservable<Element: Sendable>(
    _ events: [Recorded<StreamEvent<Element, Never>>]
  ) -> HotObservable<Element, Never> {
    HotObservable(scheduler: self, events: events)
  }

  /// Creates a stream at `created`, subscribes to it at `subscribed`, disposes of the
  /// subscription at `disposed`, and returns what it received.
  ///
  /// The stream is subscribed to as an application subscribes with `subscribe(onNext:…)`: after a
  /// terminal event the subscription ends by itself and lets go of its source. The clock is
  /// advanced to `disposed`; items due later stay scheduled. The times are
  /// absolute virtual times, and the defaults (100, 200 and 1,000 seconds) leave room for hot
  /// streams' events before and after the subscription.
  ///
  /// ```swift
  /// let source = scheduler.createHotObservable([.next(.seconds(150), 1), .next(.seconds(210), 2)])
  /// let observer = scheduler.start { source.map { $0 + 1 } }
  /// observer.assertEvents([.next(.seconds(210), 3)])
  /// ```
  ///
  /// - Parameters:
  ///   - created: When to call `create`.
  ///   - subscribed: When to subscribe to the stream.
  ///   - disposed: When to dispose of the subscription.
  ///   - create: Builds the stream under test.
  /// - Returns: The observer that recorded the events.
  /// - Precondition: `now <= created <= subscribed <= disposed`.
  public func start<Source: ObservableType>(
    created: Duration = .seconds(100),
    subscribed: Duration = .seconds(200),
    disposed: Duration = .seconds(1000),
    _ create: @escaping @Sendable () -> Source
  ) -> TestableObserver<Source.Element, Source.Failure> {
    precondition(
      now.offset <= created && created <= subscribed && subscribed <= disposed,
      "TestScheduler.start needs now <= created <= subscribed <= disposed"
    )
    let observer = TestableObserver<Source.Element, Source.Failure>(scheduler: self)
    let source = LockedValue<Source?>(nil)
    let subscription = LockedValue<(any Disposable)?>(nil)
    schedule(at: SchedulerInstant(offset: created), counted: false) {
      let stream = create()
      source.withLock { $0 = stream }
    }
    schedule(at: SchedulerInstant(offset: subscribed), counted: false) {
      guard let stream = source.withLock({ $0 }) else { return }
      let disposable = stream.subscribe { observer.on($0) }
      subscription.withLock { $0 = disposable }
    }
    schedule(at: SchedulerInstant(offset: disposed), counted: false) {
      let disposable = subscription.withLock { subscription in
        defer { subscription = nil }
        return subscription
      }
      disposable?.dispose()
      source.withLock { $0 = nil }
    }
    advance(to: SchedulerInstant(offset: disposed))
    return observer
  }
}
