public import CascadeStreams

extension Feedback {
  /// A feedback whose effect follows a query derived from the state: when the query changes, the
  /// previous effect is cancelled and a new one starts; `nil` means no effect.
  ///
  /// ```swift
  /// Feedback(skippingRepeated: { $0.nextPage }) { page in
  ///   client.fetchMovies(page: page).map(Event.response)
  /// }
  /// ```
  public init<Query: Equatable & Sendable, Effect: ObservableType>(
    skippingRepeated query: @escaping @Sendable (State) -> Query?,
    effects: @escaping @Sendable (Query) -> Effect
  ) where Effect.Element == Event, Effect.Failure == Never {
    self.init(start: { context in
      let slot = EffectSlot(context: context)
      let subscription = context.states.map(query).distinctUntilChanged().subscribe(
        onNext: { query in slot.replace(with: query.map { effects($0).asObservable() }) }
      )
      return Disposables.create {
        subscription.dispose()
        slot.dispose()
      }
    })
  }

  /// A feedback whose effect runs while `predicate` holds: it starts (with that state) when the
  /// predicate becomes true and is cancelled when it becomes false; later states for which it
  /// still holds do not restart it.
  ///
  /// ```swift
  /// Feedback(predicate: { !$0.paging }) { _ in nearBottom.map { .startLoadingNextPage } }
  /// ```
  public init<Effect: ObservableType>(
    predicate: @escaping @Sendable (State) -> Bool,
    effects: @escaping @Sendable (State) -> Effect
  ) where Effect.Element == Event, Effect.Failure == Never {
    self.init(start: { context in
      let slot = EffectSlot(context: context)
      let active = FeedbackMemory(false)
      let subscription = context.states.subscribe(onNext: { state in
        let holds = predicate(state)
        if holds && !active.value {
          active.value = true
          slot.replace(with: effects(state).asObservable())
        } else if !holds && active.value {
          active.value = false
          slot.replace(with: nil)
        }
      })
      return Disposables.create {
        subscription.dispose()
        slot.dispose()
      }
    })
  }

  /// A feedback running one effect per keyed request, concurrently: RxFeedback's
  /// `react(requests:)`.
  ///
  /// A key that appears starts an effect with its request; a request that changes under the same
  /// key is delivered to the running effect (through the stream it was given), without
  /// restarting it; a key that vanishes cancels its effect.
  ///
  /// ```swift
  /// Feedback(requests: { state in state.downloads }) { id, request in
  ///   request.flatMapLatest { download(id, $0) }
  /// }
  /// ```
  public init<Key: Hashable & Sendable, Request: Equatable & Sendable, Effect: ObservableType>(
    requests: @escaping @Sendable (State) -> [Key: Request],
    effects: @escaping @Sendable (Key, Observable<Request, Never>) -> Effect
  ) where Effect.Element == Event, Effect.Failure == Never {
    self.init(start: { context in
      let running = LockedValue<[Key: KeyedEffect<State, Event, Request>]>([:])
      let subscription = context.states.subscribe(onNext: { state in
        let wanted = requests(state)
        let (vanished, changed, added) = running.withLock { running in
          var vanished: [KeyedEffect<State, Event, Request>] = []
          for key in running.keys where wanted[key] == nil {
            vanished.append(running.removeValue(forKey: key)!)
          }
          var changed: [(KeyedEffect<State, Event, Request>, Request)] = []
          var added: [(Key, KeyedEffect<State, Event, Request>)] = []
          for (key, request) in wanted {
            if let effect = running[key] {
              if effect.requests.value != request { changed.append((effect, request)) }
            } else {
              let effect = KeyedEffect(context: context, request: request)
              running[key] = effect
              added.append((key, effect))
            }
          }
          return (vanished, changed, added)
        }
        for effect in vanished { effect.cancel() }
        for (effect, request) in changed { effect.requests.onNext(request) }
        for (key, effect) in added {
          effect.slot.replace(with: effects(key, effect.requests.asObservable()).asObservable())
        }
      })
      return Disposables.create {
        subscription.dispose()
        let all = running.withLock { running in
          defer { running = [:] }
          return Array(running.values)
        }
        for effect in all { effect.cancel() }
      }
    })
  }

  /// A feedback running one effect per request in a set, concurrently; a request that leaves
  /// the set cancels its effect.
  public init<Request: Hashable & Sendable, Effect: ObservableType>(
    requests: @escaping @Sendable (State) -> Set<Request>,
    effects: @escaping @Sendable (Request) -> Effect
  ) where Effect.Element == Event, Effect.Failure == Never {
    self.init(
      requests: { state in Dictionary(uniqueKeysWithValues: requests(state).map { ($0, $0) }) },
      effects: { request, _ in effects(request) }
    )
  }
}

/// One running effect of a keyed feedback, and the stream of its request.
final class KeyedEffect<State: Sendable, Event: Sendable, Request: Sendable>: Sendable {
  let requests: BehaviorSubject<Request, Never>
  let slot: EffectSlot<State, Event>

  init(context: FeedbackContext<State, Event>, request: Request) {
    requests = BehaviorSubject(request)
    slot = EffectSlot(context: context)
  }

  func cancel() {
    slot.dispose()
    requests.onCompleted()
  }
}
