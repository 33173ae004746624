extension ObservableType {
  /// Splits this stream into groups by key: emits a ``GroupedObservable`` the first time a key
  /// is seen, and sends each value into its key's group.
  ///
  /// A new group is emitted before its first value is sent into it, so a subscriber that
  /// subscribes to the group when it is emitted receives every value of the group. On
  /// completion of this stream, every group completes and then the result; on a failure,
  /// whether of this stream or thrown by `keySelector`, every group fails with it and then the
  /// result. Disposing the subscription to the result stops new groups from being emitted but
  /// keeps the source subscribed for as long as anyone is subscribed to a group (the groups go on
  /// receiving their values, and new keys still form groups, unseen); the source is let go of
  /// once neither the result nor any group is subscribed. This is RxSwift's
  /// `groupBy(keySelector:)`, whose reference counting this follows, and passes its test cases;
  /// `keySelector` throws the stream's typed `Failure`.
  ///
  /// ```swift
  /// // Each player's scores, as a stream per player.
  /// scores.groupBy { $0.player }
  ///   .flatMap { player in player.reduce(0) { $0 + $1.points }.map { (player.key, $0) } }
  /// ```
  ///
  /// - Parameter keySelector: Gives a value's key; what it throws fails the result and every
  ///   group.
  /// - Returns: A stream of the groups, in the order their keys first appeared.
  public func groupBy<Key: Hashable & Sendable>(
    keySelector: @escaping @Sendable (Element) throws(Failure) -> Key
  ) -> Observable<GroupedObservable<Key, Element, Failure>, Failure> {
    Observable(unchecked: { observer in
      let sink = GroupBySink(downstream: observer, keySelector: keySelector)
      sink.upstream.insert(self.subscribe(sink.observer { sink.on($0) }))
      return sink
    })
  }
}

/// The subscription behind ``ObservableType/groupBy(keySelector:)``.
///
/// Groups are subjects. The sink counts the subscriptions to its groups: disposing the
/// subscription to the stream of groups (``dispose()``) only marks it let go of while a group is
/// subscribed, and the sink ends (disposing the source) when the last group subscription goes
/// too — RxSwift's `RefCountDisposable`. A group subscribed after the sink ended does not count
/// and receives whatever its subject still has to give (its end, if the source ended).
private final class GroupBySink<Key: Hashable & Sendable, Element: Sendable, Failure: Error>:
  Sink<GroupedObservable<Key, Element, Failure>, Failure>, @unchecked Sendable
{
  typealias Group = GroupedObservable<Key, Element, Failure>

  // Safety: `groups`, `order`, `subscribers` and `letGo` are read and written only with `lock`
  // held; `keySelector` is immutable.
  private let keySelector: @Sendable (Element) throws(Failure) -> Key
  private var groups: [Key: PublishSubject<Element, Failure>] = [:]
  private var order: [PublishSubject<Element, Failure>] = []
  private var subscribers = 0
  private var letGo = false

  init(
    downstream: AnyObserver<Group, Failure>,
    keySelector: @escaping @Sendable (Element) throws(Failure) -> Key
  ) {
    self.keySelector = keySelector
    super.init(downstream: downstream)
  }

  func on(_ event: StreamEvent<Element, Failure>) {
    guard !isDisposed else { return }
    switch event {
    case .next(let element):
      let key: Key
      do throws(Failure) {
        key = try keySelector(element)
      } catch {
        terminate(.error(error))
        return
      }
      let (subject, isNew, emits) = lock.withLock {
        () -> (PublishSubject<Element, Failure>, Bool, Bool) in
        if let subject = groups[key] { return (subject, false, false) }
        let subject = PublishSubject<Element, Failure>()
        groups[key] = subject
        order.append(subject)
        return (subject, true, !letGo)
      }
      if isNew, emits {
        forward(.next(Group(key: key, source: groupStream(subject))))
      }
      subject.onNext(element)
    case .error(let failure):
      terminate(.error(failure))
    case .completed:
      terminate(.completed)
    }
  }

  /// Ends every group with `event`, then the result (unless the result was let go of).
  private func terminate(_ event: StreamEvent<Element, Failure>) {
    let (subjects, wasLetGo) = lock.withLock { () -> ([PublishSubject<Element, Failure>], Bool) in
      defer {
        groups = [:]
        order = []
      }
      return (order, letGo)
    }
    for subject in subjects { subject.on(event) }
    if wasLetGo {
      super.dispose()
      return
    }
    switch event {
    case .error(let failure): forwardTerminal(.error(failure))
    default: forwardTerminal(.completed)
    }
  }

  /// The stream of a group: subscribes to `subject`, counting the subscription while the sink
  /// lives.
  private func groupStream(
    _ subject: PublishSubject<Element, Failure>
  ) -> Observable<Element, Failure> {
    Observable(unchecked: { [self] observer in
      let counted = lock.withLock { () -> Bool in
        guard !isDisposed else { return false }
        subscribers += 1
        return true
      }
      let subscription = subject.subscribe(observer)
      guard counted else { return subscription }
      return Disposables.create { [self] in
        subscription.dispose()
        releaseGroupSubscription()
      }
    })
  }

  /// Gives up one group subscription; the last one, once the result was let go of, ends the sink.
  private func releaseGroupSubscription() {
    let ends = lock.withLock { () -> Bool in
      subscribers -= 1
      return subscribers == 0 && letGo
    }
    if ends { super.dispose() }
  }

  /// Lets go of the result: the sink ends now unless a group is subscribed, else when the last
  /// group subscription is disposed.
  override func dispose() {
    let ends = lock.withLock { () -> Bool in
      letGo = true
      return subscribers == 0
    }
    if ends { super.dispose() }
  }

  override func didDispose() {
    super.didDispose()
    lock.withLock {
      groups = [:]
      order = []
    }
  }
}
