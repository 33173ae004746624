import Synchronization

extension ObservableType {
  /// Subscribes to the source, and later disposes that subscription, on `scheduler`.
  ///
  /// Use it to move the work a source does when subscribed (opening a file, starting a request)
  /// off the subscribing thread. Events are delivered wherever the source sends them; combine
  /// with ``ObservableType/observe(on:)`` to choose where they arrive. Disposing before the
  /// subscription has run cancels it; disposing after schedules the source's disposal on
  /// `scheduler`. On CascadeTesting's `TestScheduler` both happen at the current virtual time,
  /// where RxSwift's `TestScheduler` runs them one tick later.
  ///
  /// ```swift
  /// Observable.from(try lines(of: file))
  ///   .subscribe(on: SerialDispatchQueueScheduler(label: "io"))
  ///   .observe(on: MainScheduler.instance)
  /// ```
  ///
  /// - Parameter scheduler: The scheduler to subscribe and dispose on.
  /// - Returns: The same events, from a subscription made on `scheduler`.
  public func subscribe(on scheduler: some Scheduler) -> Observable<Element, Failure> {
    Observable(unchecked: { observer in
      SubscribeOnSink(downstream: observer, scheduler: scheduler).run(self)
    })
  }
}

/// The subscription behind ``ObservableType/subscribe(on:)``.
private final class SubscribeOnSink<Element: Sendable, Failure: Error>: Sink<Element, Failure>,
  @unchecked Sendable
{
  // Safety: no mutable state beyond Sink's; the rest is immutable.
  private let scheduler: any Scheduler

  init(downstream: AnyObserver<Element, Failure>, scheduler: any Scheduler) {
    self.scheduler = scheduler
    super.init(downstream: downstream)
  }

  func run<Source: ObservableType>(_ source: Source) -> any Disposable
  where Source.Element == Element, Source.Failure == Failure {
    let subscription = SingleAssignmentDisposable()
    let pending = SingleAssignmentDisposable()
    upstream.insert(pending)
    upstream.insert(subscription)
    pending.setDisposable(
      scheduler.schedule { [self, scheduler] in
        let inner = source.subscribe(observer { [self] in forward($0) })
        subscription.setDisposable(ScheduledDisposal(inner, on: scheduler))
      }
    )
    return self
  }
}

/// A disposable that disposes `inner` on a scheduler.
private final class ScheduledDisposal: Disposable {
  private let inner: any Disposable
  private let scheduler: any Scheduler
  private let disposed = Atomic<Bool>(false)

  init(_ inner: any Disposable, on scheduler: any Scheduler) {
    self.inner = inner
    self.scheduler = scheduler
  }

  func dispose() {
    guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
    scheduler.schedule { [inner] in inner.dispose() }
  }
}
