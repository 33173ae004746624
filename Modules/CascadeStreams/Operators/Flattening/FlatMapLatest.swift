extension ObservableType {
  /// Maps each value to an inner stream and emits the values of the most recent inner stream
  /// only, disposing the previous one as soon as a new value arrives.
  ///
  /// A value from an inner stream that has been replaced is never emitted, even if it was
  /// already on its way from another thread. The result fails as soon as this stream or the
  /// current inner stream fails, and completes once this stream has completed and the current
  /// inner stream (if any) has completed. A stream that completes, this one or an inner one, is
  /// let go of at once.
  ///
  /// ```swift
  /// query.flatMapLatest { text in api.search(text) }  // only the latest query's results
  /// ```
  ///
  /// - Parameter transform: Returns the inner stream for a value.
  /// - Returns: A stream of the values of the latest inner stream.
  public func flatMapLatest<Inner: ObservableType>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> Observable<Inner.Element, Failure> where Inner.Failure == Failure {
    Observable(unchecked: { observer in
      let sink = SwitchSink<Element, Inner>(downstream: observer, transform: transform)
      sink.run(self)
      return sink
    })
  }
}

extension ObservableType where Element: ObservableType, Element.Failure == Failure {
  /// Emits the values of the most recent stream this stream has emitted, disposing the previous
  /// one as soon as a new one arrives.
  ///
  /// The same as `flatMapLatest { $0 }`; see ``ObservableType/flatMapLatest(_:)``.
  ///
  /// ```swift
  /// let pages = PublishSubject<Observable<Int, Never>, Never>()
  /// pages.switchLatest().subscribe(onNext: { print($0) })
  /// ```
  public func switchLatest() -> Observable<Element.Element, Failure> {
    flatMapLatest { $0 }
  }
}

/// What `SwitchSink` queues for delivery: an event and, for inner events, the generation of the
/// inner stream that sent it (`nil` for the outer stream's own terminal events).
struct SwitchItem<Element: Sendable, Failure: Error> {
  let generation: Int?
  let event: StreamEvent<Element, Failure>
}

/// The subscription behind `flatMapLatest`: one current inner subscription, tagged with a
/// generation number; events of older generations are dropped both when they arrive and when
/// their turn for delivery comes.
final class SwitchSink<SourceElement: Sendable, Inner: ObservableType>:
  OrderedSink<Inner.Element, Inner.Failure, SwitchItem<Inner.Element, Inner.Failure>>,
  @unchecked Sendable
{
  // Safety: `generation`, `hasInner` and `outerDone` are read and written only with `lock` held;
  // `transform` and `current` are immutable.
  private let transform: @Sendable (SourceElement) -> Inner
  private let current = SerialDisposable()
  private var generation = 0
  private var hasInner = false
  private var outerDone = false

  init(
    downstream: AnyObserver<Inner.Element, Inner.Failure>,
    transform: @escaping @Sendable (SourceElement) -> Inner
  ) {
    self.transform = transform
    super.init(downstream: downstream)
  }

  func run<Source: ObservableType>(_ source: Source)
  where Source.Element == SourceElement, Source.Failure == Inner.Failure {
    upstream.insert(current)
    let outer = SingleAssignmentDisposable()
    upstream.insert(outer)
    outer.setDisposable(
      source.subscribe(
        observer { [self] (event: StreamEvent<SourceElement, Inner.Failure>) in
          switch event {
          case .next(let element):
            switchTo(transform(element))
          case .error(let failure):
            submit(SwitchItem(generation: nil, event: .error(failure)))
          case .completed:
            let done = lock.withLock {
              outerDone = true
              return !hasInner
            }
            if done { submit(SwitchItem(generation: nil, event: .completed)) }
            outer.dispose()
          }
        }
      )
    )
  }

  private func switchTo(_ inner: Inner) {
    let mine = lock.withLock {
      generation += 1
      hasInner = true
      return generation
    }
    let subscription = SingleAssignmentDisposable()
    current.replace(with: subscription)  // disposes the previous inner subscription
    subscription.setDisposable(
      inner.subscribe(
        observer { [self] (event: StreamEvent<Inner.Element, Inner.Failure>) in
          innerEvent(event, generation: mine)
          if case .completed = event { subscription.dispose() }
        }
      )
    )
  }

  private func innerEvent(_ event: StreamEvent<Inner.Element, Inner.Failure>, generation mine: Int)
  {
    lock.lock()
    guard generation == mine else {
      lock.unlock()
      return
    }
    let shouldDrain: Bool
    if case .completed = event {
      hasInner = false
      shouldDrain = outerDone && enqueue(SwitchItem(generation: nil, event: .completed))
    } else {
      shouldDrain = enqueue(SwitchItem(generation: mine, event: event))
    }
    lock.unlock()
    if shouldDrain { drain() }
  }

  private func submit(_ item: SwitchItem<Inner.Element, Inner.Failure>) {
    let shouldDrain = lock.withLock { enqueue(item) }
    if shouldDrain { drain() }
  }

  override func handle(_ item: SwitchItem<Inner.Element, Inner.Failure>) {
    if let itemGeneration = item.generation {
      guard lock.withLock({ generation == itemGeneration }) else { return }
    }
    forward(item.event)
  }
}
