import CascadeStreams

/// The one effect a query or predicate feedback runs at a time.
///
/// Replacing the effect cancels the previous one through the loop's cancellation registry: its
/// subscription is disposed, and the events it emitted that the loop has not reduced yet are
/// dropped. An effect that completed has left the registry, so replacing it drops nothing.
final class EffectSlot<State: Sendable, Event: Sendable>: Sendable {
  private struct Running {
    var lease: EffectLease<Event>?
    var isDisposed = false
  }

  private let running = LockedValue(Running())
  let context: FeedbackContext<State, Event>

  init(context: FeedbackContext<State, Event>) {
    self.context = context
  }

  /// Cancels the running effect, then starts `effect` if there is one.
  func replace(with effect: Observable<Event, Never>?) {
    let previous = running.withLock { running in
      defer { running.lease = nil }
      return running.lease
    }
    previous?.cancel()
    guard let effect else { return }
    let slot = SingleAssignmentDisposable()
    guard let lease = context.beginEffect({ slot.dispose() }) else { return }
    let accepted = running.withLock { running -> Bool in
      guard !running.isDisposed else { return false }
      running.lease = lease
      return true
    }
    guard accepted else {
      lease.cancel()
      lease.end()
      return
    }
    slot.setDisposable(
      effect.subscribe(
        onNext: { lease.send($0) },
        // Running until it ends, however it ends: what the loop's `finish()` waits for.
        onDisposed: { lease.end() }
      )
    )
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
