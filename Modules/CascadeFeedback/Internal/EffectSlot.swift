import CascadeStreams

/// The one effect a query or predicate feedback runs at a time.
///
/// Replacing the effect cancels the previous one: its subscription is disposed and its token
/// cancelled, so events it emitted that the loop has not reduced yet are dropped.
final class EffectSlot<State: Sendable, Event: Sendable>: Sendable {
  private struct Running {
    var token: EffectToken?
    var subscription: (any Disposable)?
    var isDisposed = false
  }

  private let running = LockedValue(Running())
  let context: FeedbackContext<State, Event>

  init(context: FeedbackContext<State, Event>) {
    self.context = context
  }

  /// Cancels the running effect, then starts `effect` if there is one.
  func replace(with effect: Observable<Event, Never>?) {
    let (previousToken, previousSubscription) = running.withLock { running in
      defer {
        running.token = nil
        running.subscription = nil
      }
      return (running.token, running.subscription)
    }
    previousToken?.cancel()
    previousSubscription?.dispose()
    guard let effect else { return }
    let token = EffectToken()
    let slot = SingleAssignmentDisposable()
    let accepted = running.withLock { running -> Bool in
      guard !running.isDisposed else { return false }
      running.token = token
      running.subscription = slot
      return true
    }
    guard accepted else { return }
    let context = context
    // Running until it ends, however it ends: what the loop's `finish()` waits for.
    context.effects.begin()
    slot.setDisposable(
      effect.subscribe(
        onNext: { context.emit($0, token) },
        // An effect that completes normally is not cancelled: the next `replace` must not cancel
        // its token, or the events it emitted that still wait to be reduced would be dropped.
        onCompleted: { [weak self] in self?.complete(token) },
        onDisposed: { context.effects.end() }
      )
    )
  }

  /// Forgets `token` if it is still the running effect's: it completed, so it is not cancelled.
  private func complete(_ token: EffectToken) {
    running.withLock { running in
      if running.token === token { running.token = nil }
    }
  }

  /// Cancels the running effect and refuses new ones.
  func dispose() {
    running.withLock { $0.isDisposed = true }
    replace(with: nil)
  }
}

/// State that only a feedback's state subscription touches, one state at a time.
final class FeedbackMemory<Value>: @unchecked Sendable {
  // Safety: only read and written from a feedback's state subscription, whose events never
  // overlap (the loop delivers one state at a time).
  var value: Value

  init(_ value: Value) {
    self.value = value
  }
}
