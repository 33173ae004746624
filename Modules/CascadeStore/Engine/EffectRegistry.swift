public import Synchronization

/// The identity of one running effect, carried by every input it sends: once the effect is
/// cancelled, the engine drops its inputs, whether they were queued before the cancellation or
/// are sent after it (by a stream racing its own disposal on another thread).
///
/// A reference, not a number: the mark lives as long as the inputs that carry it, so nothing
/// has to be forgotten, and the check costs an atomic load, no lock.
@usableFromInline
final class EffectOrigin: Sendable {
  /// The effect's number in its registry (0 for a replay).
  @usableFromInline let id: Int
  /// Whether the inputs it tags come from a replay (``StoreEngine/replay(_:)``), not an effect.
  @usableFromInline let isReplay: Bool
  @usableFromInline let cancelled = Atomic<Bool>(false)

  @usableFromInline
  init(id: Int, isReplay: Bool = false) {
    self.id = id
    self.isReplay = isReplay
  }

  /// Whether the effect was cancelled: its inputs are dropped.
  @inlinable var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

  @usableFromInline
  func cancel() {
    cancelled.store(true, ordering: .releasing)
  }
}

/// How a running effect is stopped.
@usableFromInline
enum EffectStop: Sendable {
  /// A command's task: cancelled (and awaited by a graceful shutdown).
  case task(Task<Void, Never>)
  /// Anything else (a subscription to a stream of mutations, a feedback effect): disposed.
  case dispose(@Sendable () -> Void)

  /// Stops the effect.
  ///
  /// It runs user code (a dispose handler) or wakes a task: never call it under a lock.
  @usableFromInline
  func callAsFunction() {
    switch self {
    case .task(let task): task.cancel()
    case .dispose(let dispose): dispose()
    }
  }
}

/// The effects running on behalf of one store, whatever the architecture.
///
/// A ``Store``'s asynchronous commands, a reactor's asynchronous mutations and mutation streams,
/// a feedback loop's effects: the one place cancellation is decided.
///
/// Each effect gets an ``EffectOrigin`` (the inputs it sends are tagged with it) and may have a
/// *key* (the user's `id:`). The semantics, the same for every architecture:
///
/// - **latest wins by key**: starting with `cancelInFlight` cancels the running effects with the
///   same key first (the caller does, with ``cancel(key:)``);
/// - **cancel by key**: ``cancel(key:)`` cancels every running effect with that key;
/// - **cancel one**: ``cancel(effect:)`` cancels one effect by its id (a feedback whose query
///   changed);
/// - **cancel all**: ``cancelAll()`` on shutdown;
/// - **queued inputs of a cancelled effect are dropped**: its origin is marked cancelled, so
///   inputs it sent before or after the cancellation are never reduced; an effect that ended
///   without being cancelled (a completed stream) keeps what it sent.
///
/// An effect is in flight from ``register(key:stop:)`` until ``end(_:)``, cancelled or not:
/// that is what `finish()` waits for and `effectsInFlight` counts. Each transition returns the
/// stops to call; the caller calls them after releasing the lock (each at most once).
@usableFromInline
struct EffectRegistry: Sendable {
  @usableFromInline
  struct Entry: Sendable {
    @usableFromInline let origin: EffectOrigin
    @usableFromInline let key: CommandID?
    @usableFromInline var stop: EffectStop?
    /// Whether `stop` was handed out to be called.
    @usableFromInline var stopped = false
  }

  @usableFromInline var entries: [Int: Entry] = [:]
  @usableFromInline var nextID = 1

  @usableFromInline init() {}

  /// The number of effects in flight.
  @inlinable var count: Int { entries.count }

  /// Registers a running effect and returns its origin; `stop` ends it when it is cancelled.
  @usableFromInline
  mutating func register(key: CommandID?, stop: EffectStop?) -> EffectOrigin {
    let origin = EffectOrigin(id: nextID)
    nextID += 1
    entries[origin.id] = Entry(origin: origin, key: key, stop: stop)
    return origin
  }

  /// Sets how effect `id` is stopped, when that is known only after registering (a task made
  /// with its id); `false` if the effect was cancelled meanwhile, and the caller stops it.
  @usableFromInline
  mutating func setStop(_ stop: EffectStop, for id: Int) -> Bool {
    guard let entry = entries[id] else { return false }
    let isCancelled = entry.origin.isCancelled
    entries[id]?.stop = stop
    entries[id]?.stopped = isCancelled
    return !isCancelled
  }

  /// Cancels every running effect with `key`; returns their stops.
  @usableFromInline
  mutating func cancel(key: CommandID) -> [EffectStop] {
    var stops: [EffectStop] = []
    for (id, entry) in entries where entry.key == key {
      stops += cancelEntry(id)
    }
    return stops
  }

  /// Cancels one running effect; returns its stop, `nil` if it ended or was cancelled already.
  @usableFromInline
  mutating func cancel(effect id: Int) -> EffectStop? {
    cancelEntry(id).first
  }

  /// Cancels every running effect (shutdown); returns their stops.
  @usableFromInline
  mutating func cancelAll() -> [EffectStop] {
    var stops: [EffectStop] = []
    for id in entries.keys { stops += cancelEntry(id) }
    return stops
  }

  private mutating func cancelEntry(_ id: Int) -> [EffectStop] {
    guard let entry = entries[id] else { return [] }
    entry.origin.cancel()
    guard !entry.stopped, let stop = entry.stop else { return [] }
    entries[id]?.stopped = true
    return [stop]
  }

  /// Effect `id` ended (returned, failed, completed or was disposed); returns whether it was
  /// in flight.
  @usableFromInline
  mutating func end(_ id: Int) -> Bool {
    entries.removeValue(forKey: id) != nil
  }

  /// Empties the registry (the store closed); returns the stops not called yet, and how many
  /// effects were in flight.
  @usableFromInline
  mutating func removeAll() -> (stops: [EffectStop], count: Int) {
    let stops = entries.values.compactMap { $0.stopped ? nil : $0.stop }
    let count = entries.count
    for entry in entries.values { entry.origin.cancel() }
    entries = [:]
    return (stops, count)
  }

  /// The tasks of the effects in flight, cancelled or not, for a shutdown to await.
  @usableFromInline
  var tasks: [Task<Void, Never>] {
    entries.values.compactMap { entry in
      if case .task(let task) = entry.stop { return task }
      return nil
    }
  }
}
