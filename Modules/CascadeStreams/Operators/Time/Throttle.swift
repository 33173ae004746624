extension ObservableType {
  /// Emits at most one value per `window`: the first at once, then, if `latest`, the last value
  /// seen during the window when it ends.
  ///
  /// The exact rules are RxSwift's:
  /// - A value that arrives `window` or more after the last *emitted* value (or the first value
  ///   ever) is emitted at once, and opens a new window.
  /// - With `latest == true`, a value that arrives inside a window is kept (replacing any value
  ///   kept before it) and emitted when the window ends, that is `window` after the last emitted
  ///   value; that emission opens the next window.
  /// - With `latest == false`, values that arrive inside a window are dropped.
  /// - On completion with a kept value, the completion waits for the window to end, right after
  ///   the kept value; otherwise it is delivered at once. Either way the source is let go of when
  ///   it completes. A failure is delivered at once and drops the kept value.
  /// - One difference from RxSwift: a value that arrives just as a window ends, before that
  ///   window's timer has run, first ends the window with the value it kept, and is itself kept
  ///   for the next window. RxSwift, in that tie, emits the new value and drops the kept one, so
  ///   which value survives would depend on which of the two runs first.
  ///
  /// ```swift
  /// // source: 1 at 0 s, 2 at 1 s, 3 at 2 s, 4 at 4 s
  /// source.throttle(.seconds(3), scheduler: scheduler)
  /// // 1 at 0 s, 3 at 3 s, 4 at 6 s
  /// source.throttle(.seconds(3), latest: false, scheduler: scheduler)
  /// // 1 at 0 s, 4 at 4 s
  /// ```
  ///
  /// - Parameters:
  ///   - window: The shortest time between two emitted values.
  ///   - latest: Whether to emit the last value seen during a window when it ends.
  ///   - scheduler: The scheduler that measures the windows and delivers the values.
  /// - Returns: A stream of at most one value per window.
  public func throttle(
    _ window: Duration,
    latest: Bool = true,
    scheduler: some Scheduler
  ) -> Observable<Element, Failure> {
    Observable(unchecked: { observer in
      ThrottleSink(downstream: observer, window: window, latest: latest, scheduler: scheduler)
        .run(self)
    })
  }
}

/// The subscription behind ``ObservableType/throttle(_:latest:scheduler:)``.
private final class ThrottleSink<Element: Sendable, Failure: Error>:
  Sink<Element, Failure>, @unchecked Sendable
{
  // Safety: `lastEmitted`, `kept`, `generation` and `completionWaits` are guarded by `lock`;
  // `timer` is only replaced from the upstream's events, which never overlap; the rest is
  // immutable.
  private let window: Duration
  private let latest: Bool
  private let scheduler: any Scheduler
  private let timer = SerialDisposable()
  private let source = SingleAssignmentDisposable()
  private var lastEmitted: SchedulerInstant?
  private var kept: Element?
  /// The window the armed timer ends; a timer of an earlier window does nothing.
  private var generation = 0
  private var completionWaits = false

  init(
    downstream: AnyObserver<Element, Failure>,
    window: Duration,
    latest: Bool,
    scheduler: any Scheduler
  ) {
    self.window = window
    self.latest = latest
    self.scheduler = scheduler
    super.init(downstream: downstream)
  }

  func run<Source: ObservableType>(_ source: Source) -> any Disposable
  where Source.Element == Element, Source.Failure == Failure {
    upstream.insert(timer)
    upstream.insert(self.source)
    self.source.setDisposable(source.subscribe(observer { [self] in on($0) }))
    return self
  }

  private enum Decision {
    case emitted
    case dropped
    case kept(armTimerAfter: Duration?, generation: Int)
  }

  private func on(_ event: StreamEvent<Element, Failure>) {
    switch event {
    case .next(let element):
      let now = scheduler.now
      let decision = lock.withLock { () -> Decision in
        let elapsed = lastEmitted.map { $0.duration(to: now) } ?? window
        if elapsed >= window, let waiting = kept {
          // The window ended but its timer has not run yet: end it now, with the value it
          // kept, so values stay in order; this one waits for the end of the next window.
          lastEmitted = now
          kept = element
          generation += 1
          enqueueEvent(.next(waiting))
          return .kept(armTimerAfter: window, generation: generation)
        }
        if elapsed >= window {
          lastEmitted = now
          enqueueEvent(.next(element))
          return .emitted
        }
        guard latest else { return .dropped }
        let alreadyWaiting = kept != nil
        kept = element
        if alreadyWaiting { return .kept(armTimerAfter: nil, generation: generation) }
        generation += 1
        return .kept(armTimerAfter: window - elapsed, generation: generation)
      }
      switch decision {
      case .emitted:
        drainEvents()
      case .dropped, .kept(armTimerAfter: nil, _):
        break
      case .kept(armTimerAfter: let delay?, let generation):
        drainEvents()
        timer.replace(
          with: scheduler.schedule(after: delay) { [self] in windowEnded(generation) }
        )
      }
    case .error:
      lock.withLock {
        kept = nil
        enqueueEvent(event)
      }
      drainEvents()
    case .completed:
      lock.withLock {
        if kept != nil {
          completionWaits = true
        } else {
          enqueueEvent(.completed)
        }
      }
      source.dispose()
      drainEvents()
    }
  }

  private func windowEnded(_ window: Int) {
    let now = scheduler.now
    lock.withLock {
      guard window == generation else { return }
      if let element = kept {
        kept = nil
        lastEmitted = now
        enqueueEvent(.next(element))
      }
      if completionWaits { enqueueEvent(.completed) }
    }
    drainEvents()
  }

  override func didDispose() {
    super.didDispose()
    lock.withLock { kept = nil }
  }
}
