extension ObservableType {
  /// Maps each value to an inner stream and emits the inner streams' values one stream at a time,
  /// in the order of the values that produced them.
  ///
  /// The inner stream for a value is created and subscribed only once the previous inner stream
  /// has completed. Values that arrive meanwhile wait in an **unbounded** FIFO buffer: nothing is
  /// dropped and the upstream is never slowed down, so a fast upstream feeding slow inner streams
  /// grows the buffer. The result fails as soon as this stream or the current inner stream fails,
  /// and completes once this stream has completed and the last inner stream has completed. A
  /// stream that completes, this one or an inner one, is let go of at once.
  ///
  /// ```swift
  /// saves.concatMap { document in api.upload(document) }  // one upload at a time, in order
  /// ```
  ///
  /// - Parameter transform: Returns the inner stream for a value; called when that stream's turn
  ///   comes, not when the value arrives.
  /// - Returns: A stream of the inner streams' values, one inner stream after another.
  public func concatMap<Inner: ObservableType>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> Observable<Inner.Element, Failure> where Inner.Failure == Failure {
    Observable(unchecked: { observer in
      let sink = ConcatMapSink<Element, Inner>(downstream: observer, transform: transform)
      sink.run(self)
      return sink
    })
  }
}

/// The subscription behind `concatMap` and `concat`: one inner subscription at a time, the
/// upstream values waiting their turn in a FIFO.
package final class ConcatMapSink<SourceElement: Sendable, Inner: ObservableType>:
  Sink<Inner.Element, Inner.Failure>, @unchecked Sendable
{
  // `package`, not internal: Swift 6.3 warns of a spurious infinite recursion for an internal
  // subclass of the package class `Sink` that declares its own initializer.

  // Safety: `queue`, `innerActive`, `outerDone` and `subscribing` are read and written only with
  // `lock` held; `transform` and `current` are immutable.
  private let transform: @Sendable (SourceElement) -> Inner
  private let current = SerialDisposable()
  private var queue = FIFO<SourceElement>()
  private var innerActive = false
  private var outerDone = false
  private var subscribing = false

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
            lock.withLock { queue.append(element) }
            subscribeNext()
          case .error(let failure):
            serialize(.error(failure))
          case .completed:
            lock.withLock { outerDone = true }
            subscribeNext()
            outer.dispose()
          }
        }
      )
    )
  }

  /// Subscribes the next inner stream if none is active, or completes if nothing is left.
  ///
  /// A trampoline: an inner stream that completes while it is being subscribed (a synchronous
  /// one) does not recurse; the loop here picks up the next value instead, so a long run of
  /// synchronous inner streams uses constant stack.
  private func subscribeNext() {
    lock.lock()
    if subscribing {
      lock.unlock()
      return
    }
    subscribing = true
    while true {
      if innerActive || isDisposed {
        subscribing = false
        lock.unlock()
        return
      }
      guard let element = queue.popFirst() else {
        let done = outerDone
        subscribing = false
        lock.unlock()
        if done { serialize(.completed) }
        return
      }
      innerActive = true
      lock.unlock()

      let inner = transform(element)
      let subscription = SingleAssignmentDisposable()
      current.replace(with: subscription)
      subscription.setDisposable(
        inner.subscribe(
          observer { [self] (event: StreamEvent<Inner.Element, Inner.Failure>) in
            if case .completed = event {
              subscription.dispose()
              lock.withLock { innerActive = false }
              subscribeNext()
            } else {
              serialize(event)
            }
          }
        )
      )
      lock.lock()
    }
  }
}
