public import Synchronization

/// The identity of one running effect, carried by every input it sends: once the effect is
/// cancelled, the engine drops its inputs, whether they were queued before the cancellation or
/// are sent after it (by a stream racing its own disposal on another thread).
///
/// A reference, not a number: the mark lives as long as the inputs that carry it, so nothing
/// has to be forgotten, and the check costs an atomic load, no lock.
///
/// It is also the effect's entry in its ``EffectRegistry`` (its key and its stop), and, for an
/// asynchronous command, what the command's task runs (``CommandTask``, a subclass): one object
/// per effect, not an origin, an entry and the closures around them.
@usableFromInline
class EffectOrigin: @unchecked Sendable {
  // Safety: `key` and `id` are set before the origin is shared and never changed; `stop` and
  // `stopped` are only read and written by its registry, under the lock of the engine that
  // owns the registry (the registry is part of `EngineStateMachine`); the flags are atomics.
  // Proven under ThreadSanitizer in CI: StoreConcurrencyTests (commands started by ids and
  // cancelled from four threads at once) and TeardownConcurrencyTests (tasks in flight when the
  // store goes).
  /// The effect's number in its registry (0 for a replay).
  @usableFromInline let id: Int
  /// Whether the inputs it tags come from a replay (``StoreEngine/replay(_:)``), not an effect.
  @usableFromInline let isReplay: Bool
  @usableFromInline let cancelled = Atomic<Bool>(false)
  /// Set once the effect ended (``EffectRegistry/end(_:)``; not when the store closed): read
  /// without the lock by the thread that started a command, to skip the bookkeeping of a task
  /// that is over.
  @usableFromInline let ended = Atomic<Bool>(false)
  /// The key `cancel(key:)` cancels it by (the user's `id:`), set by the registry only.
  @usableFromInline var key: CommandID?
  /// How it is stopped, once known: registry only, under the engine's lock.
  @usableFromInline var stop: EffectStop?
  /// Whether `stop` was handed out to be called: registry only, under the engine's lock.
  @usableFromInline var stopped = false
  /// Its slot in its registry's entries (-1 for a replay).
  ///
  /// The effect is in flight while the slot holds it. A constant, so that reading it checks no
  /// exclusivity.
  @usableFromInline let slot: Int

  @usableFromInline
  init(id: Int, slot: Int = -1, isReplay: Bool = false) {
    self.id = id
    self.slot = slot
    self.isReplay = isReplay
  }

  /// The name a late input it tagged is reported with: a command's; `nil` for other effects,
  /// whose names are only made for a probe.
  @usableFromInline var effectName: String? { nil }

  /// Whether the effect was cancelled: its inputs are dropped.
  @inlinable var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

  /// Whether the effect has ended (its registry let it go).
  @inlinable var hasEnded: Bool { ended.load(ordering: .acquiring) }

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
/// - **cancel one**: ``cancel(effect:)`` cancels one effect by its origin (a feedback whose query
///   changed);
/// - **cancel all**: ``cancelAll()`` on shutdown;
/// - **queued inputs of a cancelled effect are dropped**: its origin is marked cancelled, so
///   inputs it sent before or after the cancellation are never reduced; an effect that ended
///   without being cancelled (a completed stream) keeps what it sent.
///
/// An effect is in flight from ``register(key:stop:)`` until ``end(_:)``, cancelled or not:
/// that is what `finish()` waits for and `effectsInFlight` counts. Each transition returns the
/// stops to call; the caller calls them after releasing the lock (each at most once).
///
/// The effects in flight are held in slots, each origin knowing its own: registering takes a free
/// slot (or a new one), ending frees it. No hashing: a dictionary by id cost each command about
/// 270 instructions of W4's round trip (its `Hasher`, its insertion and removal; callgrind).
/// The slots are as many as the most effects ever in flight at once; the walks over all effects
/// (cancelling by key, shutting down) go through them in the order of the slots.
@usableFromInline
struct EffectRegistry: Sendable {
  /// The effects in flight, in their slots, `nil` in a free one.
  ///
  /// Each origin is its own entry (its key and stop).
  @usableFromInline var entries: [EffectOrigin?] = []
  /// The free slots of `entries`, the last freed last.
  @usableFromInline var free: [Int] = []
  /// The number of effects in flight.
  @usableFromInline var count = 0
  /// The id the next effect gets: ids are never reused.
  @usableFromInline var nextID = 1

  @usableFromInline init() {}

  /// The effects in flight, in the order of their slots.
  @inlinable var inFlight: some Sequence<EffectOrigin> {
    entries.lazy.compactMap { $0 }
  }

  /// Registers a running effect and returns its origin; `stop` ends it when it is cancelled.
  @usableFromInline
  mutating func register(key: CommandID?, stop: EffectStop?) -> EffectOrigin {
    register(key: key, stop: stop) { EffectOrigin(id: $0, slot: $1) }
  }

  /// Registers the running effect that `make` makes with the id and the slot it is given (an
  /// origin, or a subclass of it that carries the effect's work), and returns it.
  @inlinable
  mutating func register<Origin: EffectOrigin>(
    key: CommandID?,
    stop: EffectStop?,
    make: (_ id: Int, _ slot: Int) -> Origin
  ) -> Origin {
    let slot = free.popLast() ?? entries.count
    let origin = make(nextID, slot)
    nextID &+= 1
    origin.key = key
    origin.stop = stop
    if slot == entries.count { entries.append(origin) } else { entries[slot] = origin }
    count &+= 1
    return origin
  }

  /// Whether `origin` is in flight here.
  @inlinable
  func holds(_ origin: EffectOrigin) -> Bool {
    let slot = origin.slot
    return slot >= 0 && slot < entries.count && entries[slot] === origin
  }

  /// Sets how `origin`'s effect is stopped, when that is known only after registering (a task
  /// made with its id); `false` if the effect ended, or was cancelled meanwhile, and the caller
  /// stops it.
  @usableFromInline
  mutating func setStop(_ stop: EffectStop, for origin: EffectOrigin) -> Bool {
    guard holds(origin) else { return false }
    let isCancelled = origin.isCancelled
    origin.stop = stop
    origin.stopped = isCancelled
    return !isCancelled
  }

  /// Cancels every running effect with `key`; returns their stops.
  @usableFromInline
  mutating func cancel(key: CommandID) -> [EffectStop] {
    var stops: [EffectStop] = []
    for origin in inFlight where origin.key == key {
      if let stop = cancelEntry(origin) { stops.append(stop) }
    }
    return stops
  }

  /// Cancels one running effect; returns its stop, `nil` if it ended or was cancelled already.
  @usableFromInline
  mutating func cancel(effect origin: EffectOrigin) -> EffectStop? {
    holds(origin) ? cancelEntry(origin) : nil
  }

  /// Cancels every running effect (shutdown); returns their stops.
  @usableFromInline
  mutating func cancelAll() -> [EffectStop] {
    inFlight.compactMap { cancelEntry($0) }
  }

  private func cancelEntry(_ origin: EffectOrigin) -> EffectStop? {
    origin.cancel()
    guard !origin.stopped, let stop = origin.stop else { return nil }
    origin.stopped = true
    return stop
  }

  /// `origin`'s effect ended (returned, failed, completed or was disposed); returns whether it
  /// was in flight.
  @inlinable
  mutating func end(_ origin: EffectOrigin) -> Bool {
    guard holds(origin) else { return false }
    count &-= 1
    if count == 0 && entries.count > 64 {
      // None left after a burst: its slots go.
      entries = []
      free = []
    } else if origin.slot == entries.count &- 1 {
      // The last slot goes rather than joining the free ones: effects one at a time (each ended
      // before the next begins) never allocate the free list.
      entries.removeLast()
    } else {
      entries[origin.slot] = nil
      free.append(origin.slot)
    }
    // Its task (if any) is over: the registry no longer keeps it, and whoever holds the origin
    // after this (the inputs it tagged) does not keep the task alive either.
    origin.stop = nil
    origin.ended.store(true, ordering: .releasing)
    return true
  }

  /// Empties the registry (the store closed); returns the stops not called yet, and how many
  /// effects were in flight.
  @usableFromInline
  mutating func removeAll() -> (stops: [EffectStop], count: Int) {
    let stops = inFlight.compactMap { $0.stopped ? nil : $0.stop }
    let ended = count
    for origin in inFlight {
      origin.cancel()
      origin.stop = nil
    }
    entries = []
    free = []
    count = 0
    return (stops, ended)
  }

  /// The tasks of the effects in flight, cancelled or not, for a shutdown to await.
  @usableFromInline
  var tasks: [Task<Void, Never>] {
    inFlight.compactMap { origin in
      if case .task(let task) = origin.stop { return task }
      return nil
    }
  }
}
