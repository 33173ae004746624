extension ObservableType {
  /// Shares one subscription to this stream among all subscribers, replaying up to `replay` of
  /// the latest values to each new one.
  ///
  /// The first subscriber *connects*: this stream is subscribed exactly once, however many
  /// subscribers arrive at the same moment on different threads, and its events are multicast
  /// through a subject (a `ReplaySubject` of size `replay`, or a `PublishSubject` for 0). When
  /// the last subscriber disposes, the connection is disposed; when this stream terminates, the
  /// current subscribers receive the terminal event and the connection is dropped. Either way a
  /// later subscriber connects afresh, with an empty replay buffer (RxSwift's `.whileConnected`
  /// scope).
  ///
  /// Connecting, disconnecting and replaying all happen outside the operator's lock, on the
  /// subscribing or disposing thread, so a subscriber holding a lock of its own cannot deadlock
  /// against another thread's callbacks.
  ///
  /// ```swift
  /// let user = api.loadUser().share(replay: 1)
  /// user.map(\.name).subscribe(onNext: { print($0) })
  /// user.map(\.avatar).subscribe(onNext: { print($0) })  // one request, two subscribers
  /// ```
  ///
  /// - Parameter replay: How many of the latest values a new subscriber receives first.
  /// - Returns: A stream that shares one subscription to this stream.
  public func share(replay: Int = 0) -> Observable<Element, Failure> {
    precondition(replay >= 0, "share(replay:) requires a non-negative replay count")
    let state = ShareState(source: self, replay: replay)
    return Observable(unchecked: { observer in state.subscribe(observer) })
  }
}

/// The state behind one `share(replay:)` call: the current connection, if any.
final class ShareState<Source: ObservableType>: @unchecked Sendable {
  typealias Element = Source.Element
  typealias Failure = Source.Failure

  /// One subscription to the source and the subject multicasting its events.
  final class Connection: @unchecked Sendable {
    // Safety: `subscribers` and `started` are read and written only with the owning state's
    // `lock` held; the other properties are immutable Sendable references.
    let subject: SubjectCore<Element, Failure>
    let subscription = SingleAssignmentDisposable()
    let lifetime = Lifetime()
    var subscribers = 0
    var started = false

    init(replay: Int) {
      subject = SubjectCore(replay: replay)
    }
  }

  // Safety: `current` is read and written only with `lock` held; `source` and `replay` are
  // immutable.
  private let lock = Lock()
  private let source: Source
  private let replay: Int
  private var current: Connection?

  init(source: Source, replay: Int) {
    self.source = source
    self.replay = replay
  }

  func subscribe(_ observer: AnyObserver<Element, Failure>) -> any Disposable {
    let (connection, connect) = lock.withLock { () -> (Connection, Bool) in
      let connection = current ?? Connection(replay: replay)
      current = connection
      connection.subscribers += 1
      defer { connection.started = true }
      return (connection, !connection.started)
    }
    // Outside the lock: the subject replays to `observer` on this thread, and connecting runs
    // the source's subscription code.
    let registration = connection.subject.subscribe(observer)
    if connect {
      connection.subscription.setDisposable(
        source.subscribe(
          AnyObserver(
            { [self] (event: StreamEvent<Element, Failure>) in
              if event.isTerminal { terminated(connection) }
              connection.subject.on(event)
              if event.isTerminal { connection.subscription.dispose() }
            },
            lifetime: connection.lifetime
          )
        )
      )
    }
    return Disposables.create { [self] in
      registration.dispose()
      release(connection)
    }
  }

  /// Drops `connection` when its source terminates, so that the next subscriber reconnects.
  private func terminated(_ connection: Connection) {
    lock.withLock {
      if current === connection { current = nil }
    }
  }

  /// Counts one subscriber fewer; the last one disconnects.
  private func release(_ connection: Connection) {
    let disconnect = lock.withLock {
      connection.subscribers -= 1
      guard connection.subscribers == 0, current === connection else { return false }
      current = nil
      return true
    }
    guard disconnect else { return }
    connection.lifetime.end()
    connection.subscription.dispose()
  }
}
