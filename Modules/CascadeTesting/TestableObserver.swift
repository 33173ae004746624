public import CascadeStreams

/// An observer that records every event with the virtual time it arrived at.
///
/// Create one with ``TestScheduler/createObserver(_:failure:)``; compare ``events`` with an
/// expected list, or call `assertEvents(_:)` for a readable diff
/// when they differ.
///
/// ```swift
/// let observer = scheduler.createObserver(Int.self)
/// let subscription = stream.subscribe(observer)
/// scheduler.advance(by: .seconds(3))
/// #expect(observer.events == [.next(.seconds(1), 1), .completed(.seconds(3))])
/// subscription.dispose()
/// ```
public final class TestableObserver<Element: Sendable, Failure: Error>: ObserverType {
  private let scheduler: TestScheduler
  private let recorded = LockedValue<[Recorded<StreamEvent<Element, Failure>>]>([])

  init(scheduler: TestScheduler) {
    self.scheduler = scheduler
  }

  /// The events received so far, in order, with their virtual times.
  public var events: [Recorded<StreamEvent<Element, Failure>>] { recorded.withLock { $0 } }

  /// The values received so far, without times.
  public var values: [Element] { events.compactMap(\.value.element) }

  /// Records `event` at the scheduler's current time.
  ///
  /// - Parameter event: The event received.
  public func on(_ event: StreamEvent<Element, Failure>) {
    let time = scheduler.now.offset
    recorded.withLock { $0.append(Recorded(time: time, value: event)) }
  }
}

extension TestScheduler {
  /// Creates an observer that records events with this scheduler's virtual time.
  ///
  /// ```swift
  /// let values = scheduler.createObserver(Int.self)
  /// let results = scheduler.createObserver(String.self, failure: LoadError.self)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The element type.
  ///   - failure: The failure type; `Never` unless given.
  /// - Returns: A new observer with no events.
  public func createObserver<Element: Sendable, Failure: Error>(
    _ type: Element.Type,
    failure: Failure.Type = Never.self
  ) -> TestableObserver<Element, Failure> {
    TestableObserver(scheduler: self)
  }
}
