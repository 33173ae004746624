extension Observable {
  /// Emits the values of all `sources` as they arrive, interleaved.
  ///
  /// All sources are subscribed at once, in order. The merged stream fails as soon as one source
  /// fails (disposing the others) and completes when every source has completed; with no sources
  /// it completes at once. Values sent concurrently by different sources are serialized: calls
  /// downstream never overlap.
  ///
  /// ```swift
  /// let taps = PublishSubject<String, Never>()
  /// let keys = PublishSubject<String, Never>()
  /// Observable.merge([taps.asObservable(), keys.asObservable()])
  ///   .subscribe(onNext: { print($0) })
  /// taps.onNext("tap")  // tap
  /// keys.onNext("a")  // a
  /// ```
  ///
  /// - Parameter sources: The streams to merge.
  /// - Returns: A stream of the values of all `sources`.
  public static func merge(_ sources: [Observable]) -> Observable {
    Observable(unchecked: { observer in
      let sink = MergeSink(downstream: observer, active: sources.count)
      if sources.isEmpty {
        sink.forwardTerminal(.completed)
        return sink
      }
      for source in sources {
        if sink.isDisposed { break }
        sink.subscribeInner(source)
      }
      return sink
    })
  }

  /// Emits the values of all `sources` as they arrive, interleaved.
  ///
  /// See `merge(_:)` for the terminal rules.
  ///
  /// - Parameter sources: The streams to merge.
  /// - Returns: A stream of the values of all `sources`.
  public static func merge(_ sources: Observable...) -> Observable {
    merge(sources)
  }
}

extension ObservableType {
  /// Emits the values of this stream and of `other` as they arrive, interleaved.
  ///
  /// Fails as soon as either fails; completes when both have completed.
  ///
  /// ```swift
  /// refreshTaps.merge(with: pullToRefresh)
  /// ```
  ///
  /// - Parameter other: The stream to merge with this one.
  /// - Returns: A stream of the values of both streams.
  public func merge<Other: ObservableType>(with other: Other) -> Observable<Element, Failure>
  where Other.Element == Element, Other.Failure == Failure {
    Observable.merge([asObservable(), other.asObservable()])
  }
}

/// The subscription behind `merge` and `flatMap`: any number of inner subscriptions whose events
/// are serialized downstream, completing when the last active one completes.
package final class MergeSink<Element: Sendable, Failure: Error>: Sink<Element, Failure>,
  @unchecked Sendable
{
  // `package`, not internal: Swift 6.3 warns of a spurious infinite recursion for an internal
  // subclass of the package class `Sink` that declares its own initializer.

  // Safety: `active` is read and written only with `lock` held.
  private var active: Int

  /// Creates a sink that completes once `active` sources (an outer stream included) have
  /// completed.
  init(downstream: AnyObserver<Element, Failure>, active: Int) {
    self.active = active
    super.init(downstream: downstream)
  }

  /// Counts one more source that must complete; call before subscribing it.
  func addSource() {
    lock.withLock { active += 1 }
  }

  /// Records that one source completed; the last one completes the merged stream.
  func sourceCompleted() {
    let done = lock.withLock {
      active -= 1
      return active == 0
    }
    if done { serialize(.completed) }
  }

  /// Subscribes `inner`, already counted as active, forwarding its values and failure.
  func subscribeInner<Inner: ObservableType>(_ inner: Inner)
  where Inner.Element == Element, Inner.Failure == Failure {
    let subscription = SingleAssignmentDisposable()
    guard let key = upstream.insert(subscription) else { return }
    subscription.setDisposable(
      inner.subscribe(
        observer { [self] (event: StreamEvent<Element, Failure>) in
          if case .completed = event {
            upstream.remove(for: key)
            sourceCompleted()
          } else {
            serialize(event)
          }
        }
      )
    )
  }
}
