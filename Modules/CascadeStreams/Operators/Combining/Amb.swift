extension ObservableType {
  /// Mirrors whichever of this stream and `other` sends an event first, and lets go of the
  /// other.
  ///
  /// The first event of either stream — a value, a failure or completion — elects that stream;
  /// the other is disposed of at once, and from then on the result is the elected stream. This
  /// is RxSwift's `amb(_:)` and passes its test cases.
  ///
  /// ```swift
  /// // Whichever mirror answers first.
  /// primary.fetch().amb(mirror.fetch())
  /// ```
  ///
  /// - Parameter other: The competing stream.
  /// - Returns: The stream that sent an event first.
  public func amb<Other: ObservableType>(
    _ other: Other
  ) -> Observable<Element, Failure> where Other.Element == Element, Other.Failure == Failure {
    Observable.amb([asObservable(), other.asObservable()])
  }
}

extension Observable {
  /// Mirrors whichever of `sources` sends an event first, and lets go of the others.
  ///
  /// See `amb(_:)` for the election; with no sources, the result never sends anything.
  ///
  /// ```swift
  /// Observable.amb(mirrors.map { $0.fetch() })
  /// ```
  ///
  /// - Parameter sources: The competing streams, subscribed to in this order.
  /// - Returns: The stream that sent an event first.
  public static func amb(_ sources: [Observable]) -> Observable {
    Observable(unchecked: { observer in
      let sink = AmbSink(downstream: observer, count: sources.count)
      for (index, source) in sources.enumerated() { sink.subscribe(source, at: index) }
      return sink
    })
  }
}

/// The subscription behind `amb`: one subscription per source until one is elected.
private final class AmbSink<Element: Sendable, Failure: Error>: Sink<Element, Failure>,
  @unchecked Sendable
{
  // Safety: `winner` is read and written only with `lock` held; `subscriptions` is immutable.
  // Once elected, only the winner's events pass, and those never overlap.
  private let subscriptions: [SingleAssignmentDisposable]
  private var winner: Int?

  init(downstream: AnyObserver<Element, Failure>, count: Int) {
    subscriptions = (0..<count).map { _ in SingleAssignmentDisposable() }
    super.init(downstream: downstream)
  }

  func subscribe(_ source: Observable<Element, Failure>, at index: Int) {
    guard !isDisposed, lock.withLock({ winner == nil }) else { return }
    let subscription = subscriptions[index]
    upstream.insert(subscription)
    subscription.setDisposable(source.subscribe(observer { [self] in on($0, from: index) }))
  }

  private func on(_ event: StreamEvent<Element, Failure>, from index: Int) {
    let (passes, elected) = lock.withLock { () -> (Bool, Bool) in
      if let winner { return (winner == index, false) }
      winner = index
      return (true, true)
    }
    guard passes else { return }
    if elected {
      for (other, subscription) in subscriptions.enumerated() where other != index {
        subscription.dispose()
      }
    }
    forward(event)
  }
}
