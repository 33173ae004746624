extension ObservableType {
  /// Resubscribes to this stream when it fails, up to `maxAttempts` subscriptions in all.
  ///
  /// The first subscription counts as the first attempt: `retry(3)` subscribes at most three
  /// times and then lets the third failure through. Resubscription is immediate, on the thread
  /// that delivered the failure; a stream that fails synchronously is retried in a loop, not by
  /// recursion. Values of every attempt are emitted; completion ends the stream.
  ///
  /// ```swift
  /// api.load().retry(3)
  /// ```
  ///
  /// - Parameter maxAttempts: The total number of subscriptions; at least 1.
  /// - Returns: A stream of the values of every attempt, ending with the last attempt's terminal event.
  public func retry(_ maxAttempts: Int) -> Observable<Element, Failure> {
    precondition(maxAttempts >= 1, "retry(_:) requires at least one attempt")
    return Observable(unchecked: { observer in
      let sink = RetrySink(downstream: observer, source: self, maxAttempts: maxAttempts)
      sink.run()
      return sink
    })
  }

  /// Resubscribes to this stream every time it fails, forever.
  ///
  /// A stream that always fails synchronously makes this loop until the subscriber disposes.
  public func retry() -> Observable<Element, Failure> {
    retry(Int.max)
  }
}

/// The subscription behind `retry`: one attempt at a time, each replacing the last.
package final class RetrySink<Source: ObservableType>: Sink<Source.Element, Source.Failure>,
  @unchecked Sendable
{
  // `package`, not internal: Swift 6.3 warns of a spurious infinite recursion for an internal
  // subclass of the package class `Sink` that declares its own initializer.

  // Safety: `attempts`, `running` and `again` are read and written only with `lock` held;
  // `source`, `maxAttempts` and `current` are immutable.
  private let source: Source
  private let maxAttempts: Int
  private let current = SerialDisposable()
  private var attempts = 0
  private var running = false
  private var again = false

  init(
    downstream: AnyObserver<Source.Element, Source.Failure>,
    source: Source,
    maxAttempts: Int
  ) {
    self.source = source
    self.maxAttempts = maxAttempts
    super.init(downstream: downstream)
  }

  /// Starts the first attempt.
  func run() {
    upstream.insert(current)
    subscribe()
  }

  /// Subscribes a new attempt.
  ///
  /// A trampoline: a failure delivered while an attempt is being subscribed (a synchronous one)
  /// asks the running loop for another round instead of recursing.
  private func subscribe() {
    let start = lock.withLock {
      if running {
        again = true
        return false
      }
      running = true
      return true
    }
    guard start else { return }
    while true {
      lock.withLock { attempts += 1 }
      let subscription = SingleAssignmentDisposable()
      current.replace(with: subscription)
      subscription.setDisposable(
        source.subscribe(
          observer { [self] (event: StreamEvent<Source.Element, Source.Failure>) in
            guard case .error(let failure) = event else { return forward(event) }
            let retry = lock.withLock { attempts < maxAttempts }
            if retry && !isDisposed {
              subscribe()
            } else {
              forwardTerminal(.error(failure))
            }
          }
        )
      )
      let repeatNow = lock.withLock {
        if again && !isDisposed {
          again = false
          return true
        }
        running = false
        return false
      }
      guard repeatNow else { return }
    }
  }
}
